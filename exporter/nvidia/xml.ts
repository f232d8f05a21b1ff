// A minimal XML reader for `nvidia-smi -q -x`: elements, attributes, text and the five
// predefined entities. The document is machine-written (no CDATA, no namespaces), which is
// all this needs; it avoids a dependency for one trusted input format.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return ENTITIES[e] ?? "";
  });
}

const TAG = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTR = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function after(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  if (at < 0) throw new Error(`malformed XML: no ${marker} after offset ${from}`);
  return at + marker.length;
}

export function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    const top = stack[stack.length - 1] ?? root;
    if (lt < 0) break;
    if (lt > i) {
      const chunk = text.slice(i, lt);
      if (chunk.trim() !== "") top.text += decode(chunk); // indentation is not content
    }
    if (text.startsWith("<?", lt)) i = after(text, "?>", lt);
    else if (text.startsWith("<!--", lt)) i = after(text, "-->", lt);
    else if (text.startsWith("<!", lt)) i = after(text, ">", lt);
    else {
      TAG.lastIndex = lt;
      const m = TAG.exec(text);
      if (!m) throw new Error(`malformed XML near offset ${lt}`);
      const [whole, closing, name = "", attrText = "", selfClosing] = m;
      if (closing) {
        if (top.name !== name) throw new Error(`unexpected </${name}> inside <${top.name}>`);
        top.text = top.text.trim();
        stack.pop();
      } else {
        const el: XmlElement = { name, attrs: {}, children: [], text: "" };
        for (const a of attrText.matchAll(ATTR)) el.attrs[a[1] ?? ""] = decode(a[2] ?? a[3] ?? "");
        top.children.push(el);
        if (!selfClosing) stack.push(el);
      }
      i = lt + whole.length;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name ?? "?"}>`);
  return root;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Text at a path of child names, e.g. textAt(gpu, "fb_memory_usage", "used"). */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | undefined {
  let cur = el;
  for (const p of path) cur = child(cur, p);
  return cur?.text;
}
