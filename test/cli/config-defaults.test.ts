/**
 * A start without a config file takes the plain defaults of config.ts and loads no validator; they
 * must stay exactly what the schema gives for `{}`, so the two can never drift apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig } from '../../src/config/config.js';
import { ConfigSchema } from '../../src/config/config-schema.js';
import { defaultNotifyConfig } from '../../src/config/notify.js';
import { NotifyConfigSchema } from '../../src/config/notify-schema.js';
import { tempDir, writeFile } from '../helpers/box.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('tower-defaults-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the plain config defaults', () => {
  it('equal what the schema yields for {}', () => {
    expect(defaultConfig()).toStrictEqual(ConfigSchema.parse({}));
    expect(defaultNotifyConfig()).toStrictEqual(NotifyConfigSchema.parse({}));
  });

  it('are fresh objects each time (a caller changing one changes no other)', () => {
    const a = defaultConfig();
    a.commands.tina.checkpoint = '/other';
    a.notify.events.pop();
    a.roots.push('/x');
    expect(defaultConfig()).toStrictEqual(ConfigSchema.parse({}));
  });

  it('are what a missing default file and an empty file both give', async () => {
    const env = { XDG_CONFIG_HOME: dir };
    expect(await loadConfig(undefined, env)).toStrictEqual({ config: ConfigSchema.parse({}), file: null });
    const file = path.join(dir, 'tower', 'config.json');
    writeFile(file, {});
    expect(await loadConfig(undefined, env)).toStrictEqual({ config: defaultConfig(), file });
  });
});
