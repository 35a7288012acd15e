// Pick a dialect and a tool, fill its arguments from its JSON schema, run it in the worker and
// see the exact text the model would see. The console is one agent session (it remembers what
// it has read); "New session" forgets that, and so does picking another dialect (which also clears
// the result shown: it came from the other dialect's tools). "Preview" shows what the call would
// write (tools.preview), without running it.
import { DIALECT_NAMES, type DialectName, type JsonSchemaProperty, type PreviewedChange, type ToolDefinition, type Tools } from 'agentvfs';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';
import { breakAtUnderscores, clear, focusLost, formatMs, h } from './dom.ts';
import { renderUnified } from './request-diff.ts';

/** Example arguments, so every tool runs with one click on the sample project (by dialect, then tool). */
const DIALECT_EXAMPLES: Partial<Record<DialectName, Record<string, Record<string, string>>>> = {
  openai: {
    apply_patch: {
      input: '*** Begin Patch\n*** Update File: README.md\n@@\n-# tiny-shop\n+# tiny-shop kit\n*** End Patch',
    },
  },
  anthropic: {
    str_replace_based_edit_tool: { command: 'view', path: '/src/cart.ts', view_range: '[1, 12]' },
    memory: { command: 'create', path: '/memories/progress.md', file_text: '- renamed formatPrice\n' },
  },
  gemini: {
    read_file: { file_path: '/src/cart.ts', start_line: '1' },
    write_file: { file_path: '/notes/todo.md', content: '- try every dialect\n' },
    replace: { file_path: '/README.md', instruction: 'Shorter tagline.', old_string: 'A small storefront library', new_string: 'A tiny storefront library' },
    glob: { pattern: '**/*.tsx' },
    grep_search: { pattern: 'formatPrice\\(' },
    list_directory: { dir_path: '/src' },
    read_many_files: { include: '["src/utils/*.ts"]' },
  },
  'mcp-filesystem': {
    read_text_file: { path: '/src/cart.ts', head: '10' },
    read_multiple_files: { paths: '["/README.md", "/src/index.ts"]' },
    write_file: { path: '/notes/todo.md', content: '- try every dialect\n' },
    edit_file: { path: '/README.md', edits: '[{"oldText": "A small storefront library", "newText": "A tiny storefront library"}]' },
    create_directory: { path: '/docs' },
    list_directory: { path: '/src' },
    directory_tree: { path: '/src' },
    move_file: { source: '/README.md', destination: '/docs/README.md' },
    search_files: { path: '/', pattern: '**/*.tsx' },
    get_file_info: { path: '/src/cart.ts' },
  },
};
const EXAMPLES: Record<string, Record<string, string>> = {
  ls: { path: '/src' },
  read_file: { path: '/src/cart.ts' },
  write_file: { path: '/notes/todo.md', content: '- try the scripted agent\n- grep 50 MB without freezing the page\n' },
  edit_file: { path: '/README.md', old_string: 'A small storefront library', new_string: 'A tiny storefront library' },
  glob: { pattern: '**/*.{ts,tsx}' },
  grep: { pattern: 'formatPrice\\(', output_mode: 'content' },
};
const RESULT_PLACEHOLDER = 'Run a tool to see its result.';
const MULTILINE = new Set(['content', 'old_string', 'new_string', 'old_str', 'new_str', 'file_text', 'insert_text', 'input', 'edits']);
const PATH_ARGS = new Set(['path', 'file_path', 'dir_path', 'source', 'destination', 'old_path', 'new_path']);

type Field = { name: string; schema: JsonSchemaProperty; required: boolean; input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement };

export class ToolConsole {
  readonly el: HTMLElement;
  /** This console's agent session, created when the workspace has started. */
  #tools: Tools<string> | null = null;
  #dialect: DialectName = 'agentvfs';
  #current: ToolDefinition<string>;
  #pickerSlot: HTMLElement;
  #forms = new Map<string, { form: HTMLFormElement; fields: Field[] }>();
  #formSlot: HTMLElement;
  #description: HTMLElement;
  #callLine: HTMLElement;
  #result: HTMLElement;
  #resultMeta: HTMLElement;
  #resultLabel: HTMLElement;
  #previewBox: HTMLElement;
  #run: HTMLButtonElement;
  #preview: HTMLButtonElement;
  #paths: HTMLDataListElement;

  constructor(
    private ws: Workspace,
    private transcript: Transcript,
    private pathsProvider: () => string[],
  ) {
    this.#current = ws.definitionsOf('agentvfs')[0]!;
    this.#pickerSlot = h('div', { class: 'picker-slot' });
    const dialectPicker = h(
      'select',
      {
        id: 'console-dialect',
        'data-testid': 'console-dialect',
        onchange: (e: Event) => this.setDialect((e.target as HTMLSelectElement).value as DialectName),
      },
      ...DIALECT_NAMES.map((d) => h('option', { value: d, selected: d === 'agentvfs' }, d)),
    );
    this.#paths = h('datalist', { id: 'vfs-paths' });
    this.#formSlot = h('div', { class: 'form-slot' });
    this.#description = h('p', { class: 'tool-desc' });
    this.#run = h('button', { type: 'button', class: 'primary', 'data-testid': 'console-run', title: 'Run (Ctrl+Enter)' }, 'Run ', h('kbd', null, 'Ctrl ↵'));
    this.#run.addEventListener('click', (e) => {
      e.preventDefault();
      void this.run();
    });
    this.#preview = h(
      'button',
      { type: 'button', class: 'ghost', 'data-testid': 'console-preview', title: 'What this call would write, without running it (tools.preview)' },
      'Preview',
    );
    this.#preview.addEventListener('click', () => void this.preview());
    this.#previewBox = h('div', {
      class: 'preview-box',
      'data-testid': 'console-preview-result',
      tabIndex: 0,
      hidden: true,
      'aria-label': 'What the call would write',
    });
    this.#resultLabel = h('span', { class: 'label' }, 'What the model sees');
    this.#callLine = h('code', { class: 'call-line', 'data-testid': 'console-call' });
    this.#resultMeta = h('span', { class: 'muted', 'data-testid': 'console-meta' });
    this.#result = h(
      'pre',
      { class: 'result', 'data-testid': 'console-result', tabIndex: 0, 'aria-live': 'polite', 'aria-label': 'Tool result' },
      RESULT_PLACEHOLDER,
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
      h(
        'div',
        { class: 'field inline dialect', title: "Which model family's tools: createTools(backend, { dialect })" },
        h('label', { for: 'console-dialect', class: 'arg-name' }, 'dialect'),
        dialectPicker,
      ),
      this.#pickerSlot,
      this.#description,
      this.#formSlot,
      h('div', { class: 'actions' }, this.#run, this.#preview, newSession),
      h(
        'div',
        { class: 'result-box' },
        h('div', { class: 'result-head' }, this.#resultLabel, this.#resultMeta),
        this.#callLine,
        this.#result,
        this.#previewBox,
      ),
    );
    this.setDialect('agentvfs');
  }

  /** Shows `dialect`'s tools; a new console session starts on the next run. */
  setDialect(dialect: DialectName): void {
    const changed = dialect !== this.#dialect;
    this.#dialect = dialect;
    const select = this.el?.querySelector<HTMLSelectElement>('#console-dialect');
    if (select && select.value !== dialect) select.value = dialect;
    const defs = this.ws.definitionsOf(dialect);
    this.#forms.clear();
    this.#tools = null;
    clear(
      this.#pickerSlot,
      h(
        'div',
        { class: dialect === 'agentvfs' ? 'segmented' : 'segmented wrap', role: 'radiogroup', 'aria-label': 'Tool' },
        ...defs.map((d, i) =>
          h(
            'label',
            { class: 'segment', 'data-testid': `tool-${d.name}` },
            h('input', { type: 'radio', name: 'tool', value: d.name, checked: i === 0, onchange: () => this.#pick(d) }),
            h('span', null, ...breakAtUnderscores(d.name)),
          ),
        ),
      ),
    );
    this.#pick(defs[0]!);
    if (!changed) return;
    // The result shown came from the other dialect's tools and session: it stays in the transcript.
    this.#showing('result');
    this.#callLine.textContent = '';
    this.#resultMeta.textContent = '';
    this.#result.textContent = RESULT_PLACEHOLDER;
    this.#result.classList.remove('error');
    this.#previewBox.replaceChildren();
    this.transcript.event('console', `Console dialect: ${dialect}. A new console session starts with the next call.`);
  }

  #pick(def: ToolDefinition<string>): void {
    this.#current = def;
    this.#description.textContent = def.description;
    let entry = this.#forms.get(def.name);
    if (!entry) {
      entry = this.#buildForm(def);
      this.#forms.set(def.name, entry);
    }
    clear(this.#formSlot, entry.form);
  }

  #buildForm(def: ToolDefinition<string>): { form: HTMLFormElement; fields: Field[] } {
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
    const example = (this.#dialect === 'agentvfs' ? EXAMPLES[def.name] : DIALECT_EXAMPLES[this.#dialect]?.[def.name]) ?? {};
    for (const [name, schema] of Object.entries(def.parameters.properties)) {
      const required = def.parameters.required.includes(name);
      const id = `arg-${def.name}-${name}`;
      let input: Field['input'];
      if (schema.enum) {
        input = h('select', { id }, ...schema.enum.map((v) => h('option', { value: v, selected: (example[name] ?? schema.default) === v }, v)));
      } else if (schema.type === 'array' || schema.type === 'object') {
        input = h(MULTILINE.has(name) ? 'textarea' : 'input', { id, spellcheck: false, placeholder: `JSON ${schema.type}`, value: example[name] ?? '' });
      } else if (schema.type === 'boolean') {
        input = h('input', { id, type: 'checkbox', checked: schema.default === true });
      } else if (schema.type === 'integer') {
        input = h('input', {
          id,
          type: 'number',
          step: 1,
          min: schema.minimum,
          placeholder: schema.default === undefined ? '' : String(schema.default),
          value: example[name] ?? '',
        });
      } else if (MULTILINE.has(name)) {
        input = h('textarea', { id, rows: name === 'content' ? 5 : 3, spellcheck: false, value: example[name] ?? '' });
      } else {
        input = h('input', {
          id,
          type: 'text',
          spellcheck: false,
          autocomplete: 'off',
          list: PATH_ARGS.has(name) ? 'vfs-paths' : undefined,
          placeholder: schema.default === undefined ? '' : String(schema.default),
          value: example[name] ?? '',
          onfocus: PATH_ARGS.has(name) ? () => this.#fillPaths() : undefined,
        });
      }
      input.setAttribute('data-arg', name);
      if (required) input.setAttribute('aria-required', 'true');
      // Read by screen readers with the field (the hover title reaches neither them nor touch).
      if (schema.description) input.setAttribute('aria-describedby', `${id}-hint`);
      fields.push({ name, schema, required, input });
      const label = h(
        'label',
        { for: id, class: 'arg-name' },
        name,
        required ? h('span', { class: 'req', title: 'required', 'aria-hidden': 'true' }, '*') : null,
        // Spoken as "path, required, string", not "path*string".
        h('span', { class: 'sr-only' }, required ? ', required, ' : ', '),
        h('span', { class: 'arg-type' }, schema.enum ? 'enum' : schema.type),
      );
      form.append(
        h(
          'div',
          { class: `field${schema.type === 'boolean' ? ' inline' : ''}`, title: schema.description },
          label,
          input,
          h('span', { class: 'hint', id: `${id}-hint` }, schema.description),
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
      } else if (schema.type === 'array' || schema.type === 'object') {
        // Sent as parsed JSON; text that is not JSON goes as typed, and the tool says what is wrong.
        if (input.value !== '') args[name] = parseJson(input.value);
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
    // Disabling the button takes its focus away: it gets it back when the call is done.
    const hadFocus = document.activeElement === this.#run;
    this.#run.disabled = true;
    this.#callLine.textContent = `${tool}(${JSON.stringify(args)})`;
    try {
      await this.ws.started;
      this.#tools ??= this.ws.session(this.#dialect);
      const entry = await this.transcript.call(this.#tools, 'console', tool, args);
      this.#showing('result');
      this.#result.textContent = entry.result;
      this.#result.classList.toggle('error', !entry.ok);
      this.#resultMeta.textContent = `${entry.ok ? 'ok' : 'error'} · ${entry.result.length.toLocaleString()} chars · ${formatMs(entry.ms)}`;
      this.ws.changed();
    } finally {
      this.#run.disabled = false;
      if (hadFocus && focusLost()) this.#run.focus();
    }
  }

  /** Shows what the call in the form would write if it ran now: each change's diff, or the error it would answer. */
  async preview(): Promise<void> {
    if (this.#preview.disabled) return;
    const tool = this.#current.name;
    const args = this.args();
    const hadFocus = document.activeElement === this.#preview;
    this.#preview.disabled = true;
    this.#callLine.textContent = `${tool}(${JSON.stringify(args)})`;
    try {
      await this.ws.started;
      this.#tools ??= this.ws.session(this.#dialect);
      const { changes, error } = await this.#tools.preview(tool, args);
      this.#showing('preview');
      if (error !== undefined) {
        clear(this.#previewBox, h('pre', { class: 'result error' }, error.text));
        this.#resultMeta.textContent = 'would fail · nothing written';
      } else if (changes.length === 0) {
        clear(this.#previewBox, h('p', { class: 'placeholder' }, 'This call changes no file: it only reads.'));
        this.#resultMeta.textContent = 'nothing to write';
      } else {
        clear(this.#previewBox, ...changes.flatMap((change) => [h('h3', { class: 'preview-path' }, what(change)), renderUnified(change.diff)]));
        this.#resultMeta.textContent = `${changes.length === 1 ? '1 change' : `${changes.length} changes`} · nothing written yet`;
      }
    } catch (error) {
      // The worker is gone (the status bar says so): the preview cannot be made.
      this.#showing('preview');
      clear(this.#previewBox, h('pre', { class: 'result error' }, `Error: ${error instanceof Error ? error.message : String(error)}`));
      this.#resultMeta.textContent = 'no preview';
    } finally {
      this.#preview.disabled = false;
      if (hadFocus && focusLost()) this.#preview.focus();
    }
  }

  #showing(what: 'result' | 'preview'): void {
    this.#resultLabel.textContent = what === 'result' ? 'What the model sees' : 'What the call would write';
    this.#result.hidden = what !== 'result';
    this.#previewBox.hidden = what !== 'preview';
  }

  /** Pick a tool and fill fields (used by the file tree: "open in console"). */
  prefill(tool: string, values: Record<string, string>): void {
    if (this.#dialect !== 'agentvfs') this.setDialect('agentvfs');
    const radio = this.el.querySelector<HTMLInputElement>(`input[name="tool"][value="${tool}"]`);
    if (!radio) return;
    radio.checked = true;
    radio.dispatchEvent(new Event('change'));
    for (const { name, input } of this.#forms.get(tool)!.fields) if (name in values) input.value = values[name]!;
  }
}

/** A preview's change in words: "Creates /a.ts", "Removes the directory /d", … */
function what(change: PreviewedChange): string {
  if (change.from !== undefined) return `Moves ${change.from} to ${change.path}`;
  const verb = change.action === 'remove' ? 'Removes' : change.created ? 'Creates' : 'Changes';
  return `${verb} ${change.directory ? 'the directory ' : ''}${change.path}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
