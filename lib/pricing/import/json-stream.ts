import { jsonParser, type Token } from "stream-json/core/parser.js";
import { ImportFormatError, type ImportSource } from "./types.ts";

// Streams a JSON document of any size with bounded memory: stream-json's tokenizer (kept up:
// releases through 2026) turns text into tokens; this walker tracks where each token sits and
// assembles only the values a caller selects (one AWS product, one Azure item), so a 500 MB offer
// file never becomes one object. Text is fed a line at a time so every error names its line.
//
// A hostile document is refused while it streams, before it costs memory or time: nesting deeper
// than MAX_DEPTH, one key, string or number longer than MAX_TOKEN_CHARS, or one selected value of
// more than MAX_VALUE_TOKENS tokens (a 16 MiB `[[[[...` inside one AWS product took 3 GB before).
// Text reaches the tokenizer in slices of at most FEED_CHARS, so its own buffers stay small too.

/** Deeper than any price list nests (AWS terms: 8 levels; GCP SKUs: 7). */
export const MAX_DEPTH = 64;
/** Longer than any name, description or price in a price list (a few hundred characters). */
export const MAX_TOKEN_CHARS = 64 * 1024;
/** Far more than one AWS product or term, Azure item or GCP SKU holds (tens to hundreds). */
export const MAX_VALUE_TOKENS = 100_000;
const FEED_CHARS = 64 * 1024;

export type PathPart = string | number;
/** An assembled JSON value. Numbers stay the exact decimal text they were written as. */
export type JsonValue = string | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface JsonWalker {
  /**
   * Called as each value starts outside any assembled value, with its path (a live array: copy it
   * to keep it). true: assemble the value and pass it to `value`; false: walk through it.
   */
  select(path: readonly PathPart[], line: number): boolean;
  value(path: PathPart[], value: JsonValue, line: number): void;
}

type Container = JsonValue[] | JsonObject;

class Assembler {
  private readonly stack: Container[] = [];
  private readonly keys: string[] = [];
  result: JsonValue = null;
  /** tokens taken so far (bounded by MAX_VALUE_TOKENS) */
  tokens = 0;

  constructor(
    readonly path: PathPart[],
    readonly line: number,
  ) {}

  /** Feeds a token; true once the value is complete. */
  push(t: Token): boolean {
    switch (t.name) {
      case "startObject":
        return this.open(Object.create(null) as JsonObject);
      case "startArray":
        return this.open([]);
      case "keyValue":
        this.keys[this.stack.length - 1] = t.value;
        return false;
      case "endObject":
      case "endArray":
        this.stack.pop();
        return this.stack.length === 0;
      case "stringValue":
      case "numberValue":
        return this.add(t.value);
      case "trueValue":
      case "falseValue":
      case "nullValue":
        return this.add(t.value);
      default:
        return false;
    }
  }

  private open(c: Container): boolean {
    this.add(c);
    this.stack.push(c);
    return false;
  }

  private add(v: JsonValue): boolean {
    const depth = this.stack.length;
    if (depth === 0) {
      this.result = v;
      return !(typeof v === "object" && v !== null);
    }
    const top = this.stack[depth - 1];
    if (Array.isArray(top)) top.push(v);
    else if (top) top[this.keys[depth - 1] ?? ""] = v;
    return false;
  }
}

function tokensOf(out: unknown): readonly Token[] {
  if (typeof out === "object" && out !== null && "values" in out) {
    return (out as { values: Token[] }).values;
  }
  return [];
}

function where(path: readonly PathPart[]): string {
  return path.length === 0 ? "the top level" : path.join(".");
}

/** Walks `source` as one JSON document; throws ImportFormatError naming the line at fault. */
export async function walkJson(file: string, source: ImportSource, w: JsonWalker): Promise<void> {
  // chunks (streamValues) as well as whole values, so an overlong token is caught as it grows
  const parse = jsonParser({ streamValues: true, packValues: true });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const stack: boolean[] = []; // true: array
  const index: number[] = [];
  const path: PathPart[] = [];
  let asm: Assembler | null = null;
  let line = 1;
  let done = false;
  let depth = 0; // open arrays and objects, walked or assembled
  let tokenChars = 0; // of the key, string or number being read

  const refuse = (message: string): never => {
    throw new ImportFormatError(file, `line ${line}`, message);
  };
  /** Bounds every token; false for the chunk tokens only the bounds look at. */
  const bounded = (t: Token): boolean => {
    switch (t.name) {
      case "startObject":
      case "startArray":
        if (++depth > MAX_DEPTH) {
          refuse(`nested more than ${MAX_DEPTH} levels deep: not a price list`);
        }
        return true;
      case "endObject":
      case "endArray":
        depth--;
        return true;
      case "startKey":
      case "startString":
      case "startNumber":
        tokenChars = 0;
        return false;
      case "stringChunk":
      case "numberChunk":
        tokenChars += t.value.length;
        if (tokenChars > MAX_TOKEN_CHARS) {
          refuse(
            `a key, string or number longer than ${MAX_TOKEN_CHARS} characters: not a price list`,
          );
        }
        return false;
      case "endKey":
      case "endString":
      case "endNumber":
        return false;
      default:
        return true;
    }
  };

  const onToken = (t: Token): void => {
    if (!bounded(t)) return;
    if (asm) {
      if (++asm.tokens > MAX_VALUE_TOKENS) {
        refuse(
          `${where(asm.path)} (from line ${asm.line}) holds more than ${MAX_VALUE_TOKENS} values: not a price list`,
        );
      }
      if (asm.push(t)) {
        w.value(asm.path, asm.result, asm.line);
        asm = null;
        afterValue();
      }
      return;
    }
    if (t.name === "keyValue") {
      path[path.length - 1] = t.value;
      return;
    }
    if (t.name === "endObject" || t.name === "endArray") {
      stack.pop();
      index.pop();
      path.pop();
      afterValue();
      return;
    }
    const depth = stack.length;
    if (depth > 0 && stack[depth - 1]) {
      const i = (index[depth - 1] ?? -1) + 1;
      index[depth - 1] = i;
      path[depth - 1] = i;
    }
    if (w.select(path, line)) {
      asm = new Assembler([...path], line);
      if (asm.push(t)) {
        w.value(asm.path, asm.result, asm.line);
        asm = null;
        afterValue();
      }
      return;
    }
    if (t.name === "startObject" || t.name === "startArray") {
      stack.push(t.name === "startArray");
      index.push(-1);
      path.push("");
    } else {
      afterValue();
    }
  };
  const afterValue = (): void => {
    if (stack.length === 0) done = true;
  };

  const feed = (text: string): void => {
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf("\n", start);
      const lineEnd = nl < 0 ? text.length : nl + 1;
      const end = Math.min(lineEnd, start + FEED_CHARS);
      let out: unknown;
      try {
        out = parse(text.slice(start, end));
      } catch (e) {
        const why = e instanceof Error ? e.message.replace(/^Parser /, "") : String(e);
        throw new ImportFormatError(file, `line ${line}`, `not valid JSON (${why})`);
      }
      for (const t of tokensOf(out)) onToken(t);
      if (end === lineEnd && nl >= 0) line++;
      start = end;
    }
  };

  for await (const chunk of source) {
    let text: string;
    try {
      text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      throw new ImportFormatError(file, `line ${line}`, "not UTF-8 text");
    }
    feed(text);
  }
  feed(decoder.decode());
  if (!done) {
    const pending = asm as Assembler | null; // set by onToken, which TypeScript does not follow
    const open = pending ? [...pending.path] : path;
    throw new ImportFormatError(
      file,
      `line ${line}`,
      stack.length === 0 && !pending
        ? "the file is empty, not a JSON document"
        : `the file ends inside ${where(open)}: it is cut short`,
    );
  }
}

/** A string field of an assembled object, or null. */
export function str(o: JsonValue | undefined, key: string): string | null {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return null;
  const v = o[key];
  return typeof v === "string" ? v : null;
}

/** An object field of an assembled object, or null. */
export function obj(o: JsonValue | undefined, key: string): JsonObject | null {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return null;
  const v = o[key];
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v : null;
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
