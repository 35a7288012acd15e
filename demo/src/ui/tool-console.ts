// Pick a tool, fill its arguments from its JSON schema, run it in the worker and see the
// exact text the model would see. The console is one agent session (it remembers what it
// has read); "New session" forgets that.
import type { JsonSchemaProperty, ToolDefinition, Tools } from 'agentvfs';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';
import { clear, formatMs, h } from './dom.ts';

/** Example arguments, so every tool runs with one click on the sample project. */
const EXAMPLES: Record<string, Record<string, string>> = {
  ls: { path: '/src' },
  read_file: { path: '/src/cart.ts' },
  write_file: { path: '/notes/todo.md', content: '- try the scripted agent\n- grep 50 MB without freezing the page\n' },
  edit_file: { path: '/README.md', old_string: 'A small storefront library', new_string: 'A tiny storefront library' },
  glob: { pattern: '**/*.{ts,tsx}' },
  grep: { pattern: 'formatPrice\\(', output_mode: 'content' },
};
const MULTILINE = new Set(['content', 'old_string', 'new_string']);

type Field = { name: string; schema: JsonSchemaProperty; required: boolean; input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement };

export class ToolConsole {
  readonly el: HTMLElement;
  /** This console's agent session, created when the workspace has started. */
  #tools: Tools | null = null;
  #current: ToolDefinition;
  #forms = new Map<string, { form: HTMLFormElement; fields: Field[] }>();
  #formSlot: HTMLElement;
  #description: HTMLElement;
  #callLine: HTMLElement;
  #result: HTMLElement;
  #resultMeta: HTMLElement;
  #run: HTMLButtonElement;
  #paths: HTMLDataListElement;

  constructor(
    private ws: Workspace,
    private transcript: Transcript,
    private pathsProvider: () => string[],
  ) {
    const defs = ws.definitions;
    this.#current = defs[0]!;
    const picker = h(
      'div',
      { class: 'segmented', role: 'radiogroup', 'aria-label': 'Tool' },
      ...defs.map((d, i) =>
        h(
          'label',
          { class: 'segment', 'data-testid': `tool-${d.name}` },
          h('input', { type: 'radio', name: 'tool', value: d.name, checked: i === 0, onchange: () => this.#pick(d) }),
          h('span', null, d.name),
        ),
      ),
    );
    this.#paths = h('datalist', { id: 'vfs-paths' });
    this.#formSlot = h('div', { class: 'form-slot' });
    this.#description = h('p', { class: 'tool-desc' });
    this.#run = h('button', { type: 'button', class: 'primary', 'data-testid': 'console-run', title: 'Run (Ctrl+Enter)' }, 'Run ', h('kbd', null, 'Ctrl ↵'));
    this.#run.addEventListener('click', (e) => {
      e.preventDefault();
      void this.run();
    });
    this.#callLine = h('code', { class: 'call-line', 'data-testid': 'console-call' });
    this.#resultMeta = h('span', { class: 'muted', 'data-testid': 'console-meta' });
    this.#result = h(
      'pre',
      { class: 'result', 'data-testid': 'console-result', tabIndex: 0, 'aria-live': 'polite', 'aria-label': 'Tool result' },
      'Run a tool to see its result.',
    );
    const newSession = h(
      'button',
      {
        type: 'button',
        class: 'ghost small',
        title: 'Forget which files this console session has read',
        onclick: () => {
          this.#tools = null; // a new session is created on the next run
          this.transcript.event(
            'console',
            'New console session: nothing has been read yet, so write_file over an existing file and edit_file need a read_file first.',
          );
        },
      },
      'New session',
    );
    this.el = h(
      'div',
      { class: 'console' },
      this.#paths,
      picker,
      this.#description,
      this.#formSlot,
      h('div', { class: 'actions' }, this.#run, newSession),
      h(
        'div',
        { class: 'result-box' },
        h('div', { class: 'result-head' }, h('span', { class: 'label' }, 'What the model sees'), this.#resultMeta),
        this.#callLine,
        this.#result,
      ),
    );
    this.#pick(this.#current);
  }

  #pick(def: ToolDefinition): void {
    this.#current = def;
    this.#description.textContent = def.description;
    let entry = this.#forms.get(def.name);
    if (!entry) {
      entry = this.#buildForm(def);
      this.#forms.set(def.name, entry);
    }
    clear(this.#formSlot, entry.form);
  }

  #buildForm(def: ToolDefinition): { form: HTMLFormElement; fields: Field[] } {
    const fields: Field[] = [];
    const form = h('form', {
      class: 'tool-form',
      'data-testid': `form-${def.name}`,
      onsubmit: (e: Event) => {
        e.preventDefault();
        void this.run();
      },
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void this.run();
        }
      },
    });
    const example = EXAMPLES[def.name] ?? {};
    for (const [name, schema] of Object.entries(def.parameters.properties)) {
      const required = def.parameters.required.includes(name);
      const id = `arg-${def.name}-${name}`;
      let input: Field['input'];
      if (schema.enum) {
        input = h('select', { id }, ...schema.enum.map((v) => h('option', { value: v, selected: (example[name] ?? schema.default) === v }, v)));
      } else if (schema.type === 'boolean') {
        input = h('input', { id, type: 'checkbox', checked: schema.default === true });
      } else if (schema.type === 'integer') {
        input = h('input', { id, type: 'number', step: 1, min: schema.minimum, placeholder: schema.default === undefined ? '' : String(schema.default) });
      } else if (MULTILINE.has(name)) {
        input = h('textarea', { id, rows: name === 'content' ? 5 : 3, spellcheck: false, value: example[name] ?? '' });
      } else {
        input = h('input', {
          id,
          type: 'text',
          spellcheck: false,
          autocomplete: 'off',
          list: name === 'path' ? 'vfs-paths' : undefined,
          placeholder: schema.default === undefined ? '' : String(schema.default),
          value: example[name] ?? '',
          onfocus: name === 'path' ? () => this.#fillPaths() : undefined,
        });
      }
      input.setAttribute('data-arg', name);
      if (required) input.setAttribute('aria-required', 'true');
      fields.push({ name, schema, required, input });
      const label = h(
        'label',
        { for: id, class: 'arg-name' },
        name,
        required ? h('span', { class: 'req', title: 'required' }, '*') : null,
        h('span', { class: 'arg-type' }, schema.enum ? 'enum' : schema.type),
      );
      form.append(
        h(
          'div',
          { class: `field${schema.type === 'boolean' ? ' inline' : ''}`, title: schema.description },
          label,
          input,
          h('span', { class: 'hint' }, schema.description),
        ),
      );
    }
    return { form, fields };
  }

  #fillPaths(): void {
    clear(
      this.#paths,
      ...this.pathsProvider()
        .slice(0, 500)
        .map((p) => h('option', { value: p })),
    );
  }

  /** Arguments as a model would send them: required ones always, others only when set. */
  args(): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    for (const { name, schema, required, input } of this.#forms.get(this.#current.name)!.fields) {
      if (schema.type === 'boolean') {
        const checked = (input as HTMLInputElement).checked;
        if (checked !== (schema.default ?? false)) args[name] = checked;
      } else if (schema.type === 'integer') {
        if (input.value !== '') args[name] = Number(input.value);
      } else if (schema.enum) {
        if (input.value !== schema.default) args[name] = input.value;
      } else if (input.value !== '' || required) {
        args[name] = input.value;
      }
    }
    return args;
  }

  async run(): Promise<void> {
    if (this.#run.disabled) return;
    const tool = this.#current.name;
    const args = this.args();
    this.#run.disabled = true;
    this.#callLine.textContent = `${tool}(${JSON.stringify(args)})`;
    try {
      await this.ws.started;
      this.#tools ??= this.ws.session();
      const entry = await this.transcript.call(this.#tools, 'console', tool, args);
      this.#result.textContent = entry.result;
      this.#result.classList.toggle('error', !entry.ok);
      this.#resultMeta.textContent = `${entry.ok ? 'ok' : 'error'} · ${entry.result.length.toLocaleString()} chars · ${formatMs(entry.ms)}`;
      this.ws.changed();
    } finally {
      this.#run.disabled = false;
    }
  }

  /** Pick a tool and fill fields (used by the file tree: "open in console"). */
  prefill(tool: string, values: Record<string, string>): void {
    const radio = this.el.querySelector<HTMLInputElement>(`input[name="tool"][value="${tool}"]`);
    if (!radio) return;
    radio.checked = true;
    radio.dispatchEvent(new Event('change'));
    for (const { name, input } of this.#forms.get(tool)!.fields) if (name in values) input.value = values[name]!;
  }
}
