import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The served OpenAPI document, loosely typed: tests walk it by path. */
type OpenApiDocument = { paths: Record<string, any>; components: Record<string, any> };

/**
 * Checks values against the schemas of a served /api/v1/openapi.json: `check(schema, value)` throws
 * with ajv's errors, `op(path, method)` is a path's operation, `deref` follows a `$ref` (shared
 * error responses are components).
 */
export function openApiChecker(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  return {
    check(schema: unknown, value: unknown): void {
      const ok = ajv.validate(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"openapi#/components')), value);
      if (!ok) throw new Error(ajv.errorsText(ajv.errors));
    },
    op: (path: string, method: string) => doc.paths[path][method],
    deref: (value: any) => (value?.$ref ? value.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], doc) : value),
  };
}
