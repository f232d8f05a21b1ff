// How each pricing model is marked on the offers chart, shared with its HTML legend: a colour and
// a shape each, so the marks differ for readers who cannot tell the colours apart.

export interface OfferMark {
  shape: "circle" | "square" | "triangle" | "diamond";
  fill: string;
  stroke: string;
}

export const OFFER_MARKS: Record<string, OfferMark> & { other: OfferMark } = {
  on_demand: { shape: "circle", fill: "#355f8d", stroke: "#1f3a57" },
  reserved: { shape: "square", fill: "#21918c", stroke: "#125451" },
  spot: { shape: "triangle", fill: "#f28e2b", stroke: "#8a4a0b" },
  other: { shape: "diamond", fill: "#9c6ade", stroke: "#5a3a8a" },
};
