/**
 * Arguments of a tool call as a form generated from the tool's JSON Schema: one field per
 * property (text, number, checkbox, choice; JSON for objects and arrays), or the raw JSON text,
 * sent to the engine as the model would send it.
 */
import { useState } from 'preact/hooks';

type Schema = Readonly<Record<string, unknown>>;

function propertiesOf(schema: Schema): [string, Schema][] {
  const props = schema['properties'];
  if (props === null || typeof props !== 'object') return [];
  return Object.entries(props as Record<string, Schema>);
}

function valueOf(schema: Schema, text: string): unknown {
  const type = schema['type'];
  if (type === 'number' || type === 'integer') return Number(text);
  if (type === 'boolean') return text === 'true';
  if (type === 'string' || type === undefined) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The arguments JSON the fields make. */
export function argumentsText(schema: Schema, values: ReadonlyMap<string, string>): string {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of propertiesOf(schema)) {
    const text = values.get(name);
    if (text === undefined || text === '') continue;
    Object.defineProperty(out, name, { value: valueOf(prop, text), enumerable: true });
  }
  return JSON.stringify(out);
}

export function SchemaForm(props: {
  readonly tool: string;
  readonly schema: Schema;
  readonly onSubmit: (argumentsJson: string) => void;
  readonly busy: boolean;
}) {
  const [values, setValues] = useState(new Map<string, string>());
  const [raw, setRaw] = useState<string | undefined>(undefined);
  const required = new Set(
    Array.isArray(props.schema['required']) ? (props.schema['required'] as string[]) : [],
  );
  const set = (name: string, text: string): void => setValues(new Map(values).set(name, text));
  const json = raw ?? argumentsText(props.schema, values);
  return (
    <form
      class="schema-form"
      data-testid="call-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit(json);
      }}
    >
      {propertiesOf(props.schema).map(([name, prop]) => {
        const id = `arg-${props.tool}-${name}`;
        const label = (
          <label for={id}>
            {name}
            {required.has(name) ? ' *' : ''}
            {typeof prop['description'] === 'string' ? <small> {prop['description']}</small> : null}
          </label>
        );
        const current = values.get(name) ?? '';
        if (Array.isArray(prop['enum']))
          return (
            <div class="field" key={name}>
              {label}
              <select
                id={id}
                name={name}
                value={current}
                onChange={(e) => set(name, e.currentTarget.value)}
              >
                <option value="">(none)</option>
                {(prop['enum'] as unknown[]).map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </select>
            </div>
          );
        if (prop['type'] === 'boolean')
          return (
            <div class="field" key={name}>
              {label}
              <input
                id={id}
                name={name}
                type="checkbox"
                checked={current === 'true'}
                onChange={(e) => set(name, e.currentTarget.checked ? 'true' : '')}
              />
            </div>
          );
        return (
          <div class="field" key={name}>
            {label}
            <input
              id={id}
              name={name}
              type={prop['type'] === 'number' || prop['type'] === 'integer' ? 'number' : 'text'}
              value={current}
              placeholder={prop['type'] === 'object' || prop['type'] === 'array' ? 'JSON' : ''}
              onInput={(e) => set(name, e.currentTarget.value)}
            />
          </div>
        );
      })}
      <div class="field">
        <label for={`args-json-${props.tool}`}>arguments (JSON, sent as the model would)</label>
        <textarea
          id={`args-json-${props.tool}`}
          data-testid="args-json"
          rows={3}
          value={json}
          onInput={(e) => setRaw(e.currentTarget.value)}
        />
        {raw !== undefined ? (
          <button type="button" onClick={() => setRaw(undefined)}>
            back to the fields
          </button>
        ) : null}
      </div>
      <button type="submit" disabled={props.busy} data-testid="call-submit">
        Call {props.tool}
      </button>
    </form>
  );
}
