import type { z } from 'zod';

interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly in?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

// zod keeps a schema's structure in `_zod.def`; only the kinds the formats use are walked.
const definitionOf = (schema: z.ZodType): SchemaDefinition =>
  (schema as unknown as { readonly _zod: { readonly def: SchemaDefinition } })._zod.def;

/** The object schemas a value at `path` may be validated by (a union may offer several). */
function schemasAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  const definition = definitionOf(schema);
  if (definition.innerType) return schemasAt(definition.innerType, path);
  if (definition.in) return schemasAt(definition.in, path);
  if (definition.getter) return schemasAt(definition.getter(), path);
  if (definition.options) return definition.options.flatMap((option) => schemasAt(option, path));
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (definition.type === 'object' && typeof head === 'string') {
    const field = definition.shape?.[head];
    return field ? schemasAt(field, rest) : [];
  }
  if (definition.type === 'array' && definition.element && typeof head === 'number')
    return schemasAt(definition.element, rest);
  if (definition.type === 'record' && definition.valueType) return schemasAt(definition.valueType, rest);
  return [];
}

/** The field names the format allows in the object at `path`: what a mistyped field is compared with. */
export function fieldNamesAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return schemasAt(schema, path).flatMap((at) => Object.keys(definitionOf(at).shape ?? {}));
}

/** Whether the format allows null for the field at `path`: a missing field that may be null is told so. */
export function allowsNull(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  const parent = path.slice(0, -1);
  const name = path[path.length - 1];
  if (typeof name !== 'string') return false;
  return schemasAt(schema, parent).some((at) => {
    const field = definitionOf(at).shape?.[name];
    return field !== undefined && field.safeParse(null).success;
  });
}
