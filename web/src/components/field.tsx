// A labelled input with its error message tied to it (aria-describedby), so a screen reader reads the
// API's 422 message with the field.
import type { JSX } from "preact";

export interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (a11y: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => JSX.Element;
}

export function Field({ id, label, error, hint, children }: FieldProps) {
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <div class={`field${error ? " field-invalid" : ""}`}>
      <label for={id}>{label}</label>
      {children({ id, "aria-invalid": Boolean(error), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

interface InputProps {
  id: string;
  value: string;
  type?: "text" | "email" | "password" | "search";
  autoComplete?: string;
  required?: boolean;
  placeholder?: string;
  inputMode?: "numeric" | "text" | "decimal";
  label: string;
  error?: string | undefined;
  hint?: string;
  onValue: (value: string) => void;
}

export function TextInput({ id, label, error, hint, onValue, type = "text", ...rest }: InputProps) {
  return (
    <Field id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      {(a11y) => <input {...rest} {...a11y} type={type as "text"} onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} />}
    </Field>
  );
}

/** A message line for a whole form or screen. */
export function Notice({ kind, children }: { kind: "error" | "info" | "success"; children: JSX.Element | string | undefined }) {
  if (!children) return null;
  return (
    <p class={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** A labelled select of [value, text] options. */
export function SelectInput(props: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  error?: string | undefined;
  onValue(v: string): void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      {(a11y) => (
        <select {...a11y} value={props.value} onChange={(e) => props.onValue((e.currentTarget as HTMLSelectElement).value)}>
          {props.options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
