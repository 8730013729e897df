// A titled block of text as it arrived (headers, a body): shown as text, never as markup.

export function TextBlock({ title, text }: { title: string; text: string }) {
  return (
    <div class="block">
      <h4>{title}</h4>
      <pre>{text}</pre>
    </div>
  );
}

/** Header lines as HTTP writes them. */
export const headerLines = (headers: Readonly<Record<string, string>>): string =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
