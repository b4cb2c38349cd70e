import { Code } from '@mailwing/shared';

/** The success envelope (API.md): HTTP 200, code 200, the result in data. */
export function ok<T>(data: T): { code: 200; data: T } {
  return { code: Code.Ok, data };
}
