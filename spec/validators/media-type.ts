// The media type of a Content-Type header: the one parsing rule the fake's request reader and the response checker share.

/**
 * The media type, lower-cased, without parameters; '' when there is no header.
 * @example mediaTypeOf('Application/JSON; charset=utf-8') // 'application/json'
 */
export function mediaTypeOf(contentType: string | null | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
