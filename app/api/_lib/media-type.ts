import { UnsupportedMediaTypeError } from "./errors.ts";

// The body's media type, read one way for every route that takes a file or JSON by type.

/** The request's media type, lowercased and without parameters ("" when none was sent). */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Refuses (415) a body whose media type is not one of `accepted`, saying `how` to send it and what
 * came instead; answers the accepted type.
 */
export function requireMediaType(req: Request, accepted: readonly string[], how: string): string {
  const type = mediaType(req);
  if (!accepted.includes(type)) {
    throw new UnsupportedMediaTypeError(`${how}, not ${type || "a body without a content type"}`);
  }
  return type;
}
