import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestStack } from '@docintel/testing';
import { DESKTOP, launchChromium, openPage, PHONE, screenshot, tabTo, closesConsoleSpec } from './support/console';

/**
 * The console's Rules pages in a real browser against the started services: the triggers and
 * their rules, a filter checked against the trigger's schema as it is typed (syntax errors with
 * their line and column, schema errors by field), Save turned off while it is invalid, the
 * server's 400 shown, saved and read back (in the page and through the API), reset, deleted.
 */
describe('the web console: rules', () => {
  let stack: TestStack;
  let token: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const editor = () => page.getByLabel('Filter (JSON)');
  const saveButton = () => page.getByRole('button', { name: 'Save rule' });
  const problems = () => page.locator('[data-problem]').allTextContents();
  /** Types a filter and waits for the check that follows the pause in typing. */
  const typeFilter = async (p: Page, text: string, state: 'valid' | 'invalid') => {
    await p.getByLabel('Filter (JSON)').fill(text);
    await p.locator(`[data-validation="${state}"]`).waitFor();
  };
  const storedRule = async (triggerId: string) => {
    const res = await stack.request(`/v1/rules/${triggerId}`, { token });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as { filter: unknown }) : null };
  };

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await TestStack.start({ label: 'console-rules', apps: ['storage-service', 'rules-engine', 'api-gateway'] });
    token = await stack.token('default', 'rules@example.com');
    ({ context, page, errors } = await openPage(browser, DESKTOP, token));
  });
  closesConsoleSpec(() => ({ context, browser, stack, errors }));

  it('lists the triggers, each with its rule, from the navbar', async () => {
    await page.goto(url('/providers'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rules' }).click();
    await page.waitForURL(/\/rules$/);
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    for (const id of ['corpus_parsing', 'node_embedding', 'formula_augmentation']) {
      const card = page.locator(`[data-trigger="${id}"]`);
      await card.waitFor();
      // Every namespace starts with an empty filter per trigger.
      await expect(card.locator('[data-rule-state]').getAttribute('data-rule-state')).resolves.toBe('set');
      await expect(card.locator('[data-filter]').textContent()).resolves.toBe('{} (matches everything)');
    }
    await expect(page.locator('[data-trigger="corpus_parsing"]').textContent()).resolves.toMatch(
      /critical.*Parses a new or re-parsed file/,
    );
    await screenshot(page, 'rules-list');
  });

  it('checks a filter as it is typed: syntax errors at their line and column, schema errors by field, Save off meanwhile', async () => {
    await page.getByRole('link', { name: 'Edit the rule of node_embedding' }).click();
    await page.waitForURL(/\/rules\/node_embedding$/);
    await page.getByRole('heading', { name: 'Node embedding', level: 1 }).waitFor();
    await expect(editor().inputValue()).resolves.toBe('{}');
    await page.locator('[data-validation="valid"]').waitFor();
    await expect(editor().getAttribute('aria-invalid')).resolves.toBeNull();
    // The keys the schema from the API accepts are listed beside the editor.
    await page.locator('[data-filter-key="content_patterns"]').waitFor();

    await typeFilter(page, '{\n  "mime_types": ["application/pdf",]\n}', 'invalid');
    await expect(problems()).resolves.toEqual([
      'JSON syntax (line 2, column 36): Expected a value after the comma: a trailing comma is not allowed in JSON',
    ]);
    await expect(saveButton().isDisabled()).resolves.toBe(true);
    await expect(editor().getAttribute('aria-invalid')).resolves.toBe('true');
    // Screen readers hear the problems: they are among what describes the editor.
    const description = await page.evaluate(`(() => {
      const el = document.querySelector('[data-filter-editor]');
      return (el.getAttribute('aria-describedby') || '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' | ');
    })()`);
    expect(description).toContain('1 problem: the filter cannot be saved');
    expect(description).toContain('JSON syntax (line 2, column 36)');
    await screenshot(page, 'rules-syntax-error');

    await typeFilter(page, '{\n  "mime_types": "application/pdf",\n  "max_file_size": -1,\n  "colour": "blue"\n}', 'invalid');
    await expect(problems()).resolves.toEqual([
      'filter.mime_types (line 2, column 3): must be an array',
      'filter.max_file_size (line 3, column 3): must be 0 or more',
      'filter.colour (line 4, column 3): is not a key this filter accepts (allowed: mime_types, exclude_mime_types, node_types, classifications, content_patterns, min_file_size, max_file_size)',
    ]);
    await expect(saveButton().isDisabled()).resolves.toBe(true);
    await screenshot(page, 'rules-schema-errors');
  });

  it("shows the server's 400 for what a schema cannot say, then saves a valid filter and reads it back", async () => {
    // min_file_size above max_file_size fits the schema; the server refuses it and names the field.
    await typeFilter(page, '{"min_file_size": 100, "max_file_size": 10}', 'valid');
    await saveButton().click();
    const refused = page.locator('[data-outcome="refused"]');
    await refused.waitFor();
    await expect(refused.getAttribute('role')).resolves.toBe('alert');
    await expect(refused.textContent()).resolves.toMatch(/refused to save the rule \(400 /);
    await expect(refused.locator('[data-server-problem="filter.min_file_size"]').textContent()).resolves.toMatch(
      /filter\.min_file_size: must not be above max_file_size \(10\)/,
    );
    await expect(storedRule('node_embedding')).resolves.toEqual({ status: 200, body: expect.objectContaining({ filter: {} }) });
    await screenshot(page, 'rules-server-400');

    const filter = { mime_types: ['application/pdf'], node_types: ['heading', 'paragraph'], max_file_size: 20971520 };
    await typeFilter(page, JSON.stringify(filter), 'valid');
    await expect(saveButton().isEnabled()).resolves.toBe(true);
    await saveButton().click();
    const saved = page.locator('[data-outcome="saved"]');
    await saved.waitFor();
    await expect(saved.textContent()).resolves.toMatch(/Rule saved \(200\).*"trigger_id": "node_embedding"/s);
    // The editor shows the stored filter, formatted.
    await expect(editor().inputValue()).resolves.toBe(JSON.stringify(filter, null, 2));
    await expect(storedRule('node_embedding')).resolves.toEqual({ status: 200, body: expect.objectContaining({ filter }) });
    await screenshot(page, 'rules-saved');

    await page.reload();
    await page.getByRole('heading', { name: 'Node embedding', level: 1 }).waitFor();
    await expect(
      editor()
        .inputValue()
        .then((v) => JSON.parse(v) as unknown),
    ).resolves.toEqual(filter);
    await page.locator('[data-validation="valid"]').waitFor();
    await expect(page.locator('[data-validation]').textContent()).resolves.toBe('Valid filter, as stored');

    // Reset brings back the stored rule after an edit.
    const reset = page.getByRole('button', { name: 'Reset to the stored rule' });
    await expect(reset.isDisabled()).resolves.toBe(true);
    await typeFilter(page, '{"mime_types": [', 'invalid');
    await reset.click();
    await expect(editor().inputValue()).resolves.toBe(JSON.stringify(filter, null, 2));
    await page.locator('[data-validation="valid"]').waitFor();
  });

  it('deletes the rule after a confirmation, and creates it again', async () => {
    await page.getByRole('button', { name: 'Delete rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the rule of node_embedding?' });
    await expect(dialog.textContent()).resolves.toMatch(/stops running in this namespace/);
    await screenshot(page, 'rules-delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(storedRule('node_embedding')).resolves.toMatchObject({ status: 200 });

    await page.getByRole('button', { name: 'Delete rule' }).click();
    await dialog.getByRole('button', { name: 'Delete rule' }).click();
    await page.locator('[data-outcome="deleted"]').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.locator('[data-outcome="deleted"]').textContent()).resolves.toMatch(/Rule deleted \(204\)/);
    await expect(storedRule('node_embedding')).resolves.toEqual({ status: 404, body: null });
    await expect(page.getByRole('button', { name: 'Delete rule' }).isDisabled()).resolves.toBe(true);

    await page.getByRole('link', { name: 'Rules', exact: true }).first().click();
    await page.waitForURL(/\/rules$/);
    const card = page.locator('[data-trigger="node_embedding"]');
    await card.locator('[data-rule-state="none"]').waitFor();
    await screenshot(page, 'rules-list-deleted');

    // Creating it again answers 201.
    await card.getByRole('link', { name: 'Create the rule of node_embedding' }).click();
    await typeFilter(page, '{}', 'valid');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await expect(page.locator('[data-outcome="saved"]').textContent()).resolves.toMatch(/Rule created \(201\)/);
    await expect(storedRule('node_embedding')).resolves.toEqual({ status: 200, body: expect.objectContaining({ filter: {} }) });
  });

  it('is readable on a phone: the editor and its problems fit the screen', async () => {
    const phone = await openPage(browser, PHONE, token);
    try {
      await phone.page.goto(url('/rules/corpus_parsing'));
      await phone.page.getByRole('heading', { name: 'Corpus parsing', level: 1 }).waitFor();
      await typeFilter(phone.page, '{\n  "mime_types": ["application/pdf"],\n  "node_types": ["table"]\n}', 'invalid');
      await expect(phone.page.locator('[data-problem]').allTextContents()).resolves.toEqual([
        'filter.node_types (line 3, column 3): is not a key this filter accepts (allowed: mime_types, exclude_mime_types)',
      ]);
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'rules-phone-editor');
      await phone.page.goto(url('/rules'));
      await phone.page.locator('[data-trigger="formula_augmentation"]').waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'rules-phone-list');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('can be used with the keyboard alone: open a rule, edit its filter and save with Ctrl+Enter', async () => {
    const kb = await openPage(browser, DESKTOP, token);
    try {
      const p = kb.page;
      await p.goto(url('/rules'));
      await p.locator('[data-trigger="formula_augmentation"]').waitFor();
      const link = await tabTo(p, 'Edit the rule of formula_augmentation', 60);
      expect(link).toMatchObject({ visible: true });
      await p.keyboard.press('Enter');
      await p.waitForURL(/\/rules\/formula_augmentation$/);
      await p.getByRole('heading', { name: 'Formula augmentation', level: 1 }).waitFor();

      const field = await tabTo(p, 'Filter (JSON)', 60);
      expect(field).toMatchObject({ tag: 'textarea' });
      await p.keyboard.press('Control+A');
      await p.keyboard.type('{"node_types": ["formula"]}');
      await p.locator('[data-validation="valid"]').waitFor();
      await p.keyboard.press('Control+Enter');
      await p.locator('[data-outcome="saved"]').waitFor();
      await expect(storedRule('formula_augmentation')).resolves.toEqual({
        status: 200,
        body: expect.objectContaining({ filter: { node_types: ['formula'] } }),
      });
      // Tab leaves the editor (it does not trap the focus) and reaches Save.
      const save = await tabTo(p, 'Save rule', 5);
      expect(save).toMatchObject({ tag: 'button', visible: true });
      await screenshot(p, 'rules-keyboard');
      expect(kb.errors).toEqual([]);
    } finally {
      await kb.context.close();
    }
  });
});
