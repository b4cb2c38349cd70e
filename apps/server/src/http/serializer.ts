import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { FastifySchemaCompiler } from 'fastify';

type Stringify = (data: unknown) => string;
type SchemaOf = Parameters<FastifySchemaCompiler<unknown>>[0];
type Schema = z.core.$ZodType;

/**
 * Turns a route's zod response schema into its serializer. The schema is compiled once, on its
 * first response, into fast-json-stringify's writer (the one Fastify uses for JSON schemas): it
 * writes only the schema's properties, with no validation pass. zod's encode and then
 * JSON.stringify took 85-110 us for a 20-row mail list, the writer 21 (issue 13: about a tenth of
 * a list request's CPU). A schema that JSON Schema cannot say (a transform, a date) keeps zod.
 *
 * `checked` (every run but production, so every test): each response is also encoded by zod, which
 * throws on a wrong shape as before, and the writer's output must parse to exactly what zod gave;
 * a difference throws, naming the route. So the test suite proves the two agree on every
 * response it sees, and production runs the writer alone.
 */
export function responseSerializerCompiler(opts: { checked: boolean }) {
  return ({ schema, method, url }: SchemaOf): Stringify => {
    const zodSchema = resolve(schema);
    let write: Stringify | undefined;
    const encode = (data: unknown): unknown => {
      const result = z.safeEncode(zodSchema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      return result.data;
    };
    return (data) => {
      write ??= compile(zodSchema) ?? ((d) => JSON.stringify(encode(d)));
      if (!opts.checked) return write(data);
      const expected = JSON.stringify(encode(data));
      const out = write(data);
      if (!isDeepStrictEqual(JSON.parse(out), JSON.parse(expected))) {
        throw new Error(`the response writer of ${method} ${url} disagrees with its zod schema:\n${out}\n${expected}`);
      }
      return out;
    };
  };
}

/** The schema's writer, or undefined when JSON Schema cannot describe its output. */
function compile(schema: Schema): Stringify | undefined {
  let json: object;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
  } catch {
    return undefined;
  }
  return fastJson(json as Parameters<typeof fastJson>[0]) as Stringify;
}

function resolve(schema: unknown): Schema {
  if (schema instanceof z.core.$ZodType) return schema;
  const props = (schema as { properties?: unknown }).properties;
  if (props instanceof z.core.$ZodType) return props;
  throw new Error(`a response schema that is not zod: ${JSON.stringify(schema)}`);
}
