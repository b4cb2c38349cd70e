// Envelope codes (API.md). Every handled response is HTTP 200 with one of these in `code`.
export const Code = {
  Ok: 200,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Invalid: 422,
  TooMany: 429,
  AutoLoginRefused: 501,
  Internal: 500,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];
