/** The alerts ticked for the bulk actions. */
export interface Selection {
  has: (id: string) => boolean;
  /** selects (on) or clears every id given */
  set: (ids: readonly string[], on: boolean) => void;
}
