// Seeding an agent: a form generated from the spec's Agent schema, sent to POST /__mock/agents, where the fake's own
// validators check it; each error it names is shown at its field (and the fields the schema bounds are bounded here too).
import { useState } from 'preact/hooks';
import { call, fieldErrors, problemDetail } from '../control-client.ts';
import { formFields, type FormField } from '../spec-model.ts';

const fields = formFields('Agent');

/** The partial record the filled fields make: nested by pointer, numbers and lists read as such. */
function recordOf(values: Record<string, string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.pointer]?.trim() ?? '';
    if (raw === '') continue;
    const value =
      field.kind === 'number' || field.kind === 'integer'
        ? Number(raw)
        : field.kind === 'list'
          ? raw.split(',').map((item) => item.trim())
          : raw;
    const tokens = field.pointer.slice(1).split('/');
    let target = result;
    for (const token of tokens.slice(0, -1)) {
      target[token] ??= {};
      target = target[token] as Record<string, unknown>;
    }
    target[tokens.at(-1) ?? ''] = value;
  }
  return result;
}

const inputId = (field: FormField): string => `seed${field.pointer.replaceAll('/', '-')}`;

function Field({
  field,
  value,
  error,
  onInput,
}: {
  field: FormField;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const id = inputId(field);
  const describedBy = error === undefined ? undefined : `${id}-error`;
  const common = {
    id,
    name: field.pointer,
    value,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy,
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class={error === undefined ? 'field' : 'field invalid'}>
      <label for={id} title={field.description}>
        {field.label}
        {field.assumption && <span class="tag"> assumption</span>}
      </label>
      {field.kind === 'select' ? (
        <select {...common}>
          <option value="">(generated)</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        field.kind === 'number' || field.kind === 'integer' ? (
        <input {...common} type="number" step={field.kind === 'integer' ? '1' : 'any'} placeholder="(generated)" />
      ) : (
        <input
          {...common}
          type="text"
          list={undefined}
          placeholder={field.kind === 'list' ? 'comma, separated' : '(generated)'}
          {...(field.maxLength !== undefined && field.kind === 'text' && { maxLength: field.maxLength })}
        />
      )
      )}
      {error !== undefined && (
        <span class="error" id={describedBy} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function SeedForm({ onSeeded }: { onSeeded: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const reply = await call('POST', '/__mock/agents', recordOf(values));
    if (reply.ok) {
      const id = (reply.body as { agentId?: unknown }).agentId;
      setErrors({});
      setMessage(`Seeded ${typeof id === 'string' ? id : 'an agent'}.`);
      onSeeded();
      return;
    }
    const byField: Record<string, string> = {};
    for (const error of fieldErrors(reply.body)) {
      // A pointer below a field (an item of a list) belongs to that field.
      const field = fields.find((candidate) => error.path === candidate.pointer || error.path.startsWith(`${candidate.pointer}/`));
      const key = field?.pointer ?? '';
      byField[key] = byField[key] === undefined ? error.message : `${byField[key]}; ${error.message}`;
    }
    setErrors(byField);
    setMessage(problemDetail(reply));
  };
  return (
    <form class="seed card" onSubmit={submit} aria-labelledby="seed-title" noValidate>
      <h3 id="seed-title">Seed an agent</h3>
      <p class="muted">Fields of the spec's Agent schema; what you leave empty is generated from the seed.</p>
      <div class="fields">
        {fields.map((field) => (
          <Field
            key={field.pointer}
            field={field}
            value={values[field.pointer] ?? ''}
            error={errors[field.pointer]}
            onInput={(value) => setValues({ ...values, [field.pointer]: value })}
          />
        ))}
      </div>
      {errors[''] !== undefined && <p class="error">{errors['']}</p>}
      <button type="submit">Seed agent</button>
      <p role="status" class="message">
        {message}
      </p>
    </form>
  );
}
