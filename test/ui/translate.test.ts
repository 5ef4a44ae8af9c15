import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { keyName, splitChunk } from '../../src/keys/key-name.js';
import {
  isForceQuit,
  moveIndex,
  translateGlobalKey,
  translateModalKey,
  translatePaneKey,
  translatePromptKey,
} from '../../src/ui/input/translate.js';
import { defaultBindings } from '../../src/keys/keymap.js';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const k = (patch: Partial<Key>): Key => ({ ...NO_KEY, ...patch });
const b = defaultBindings();

describe('keyName', () => {
  it('names what ink reports', () => {
    expect(keyName('j', NO_KEY)).toBe('j');
    expect(keyName('X', k({ shift: true }))).toBe('X');
    expect(keyName('', k({ downArrow: true }))).toBe('down');
    expect(keyName('', k({ tab: true }))).toBe('tab');
    expect(keyName('', k({ tab: true, shift: true }))).toBe('shift+tab');
    expect(keyName('', k({ return: true }))).toBe('enter');
    expect(keyName('', k({ escape: true, meta: true }))).toBe('esc');
    expect(keyName('c', k({ ctrl: true }))).toBe('ctrl+c');
    expect(keyName(' ', NO_KEY)).toBe('space');
    expect(keyName('', NO_KEY)).toBeNull();
  });
});

describe('splitChunk', () => {
  it('splits a chunk read at once into text runs and control keys, in order', () => {
    expect(splitChunk('db-migrate\tschema change\r')).toEqual([
      { text: 'db-migrate' },
      { key: 'tab' },
      { text: 'schema change' },
      { key: 'enter' },
    ]);
    expect(splitChunk('jj')).toEqual([{ text: 'jj' }]);
    expect(splitChunk('a\u007fb\u0007')).toEqual([{ text: 'a' }, { key: 'backspace' }, { text: 'b' }]);
  });
});

describe('pane key translation', () => {
  it('moves in the focused pane, and leaves other keys to global', () => {
    expect(translatePaneKey(b, 'runs', 'j')).toBe('down');
    expect(translatePaneKey(b, 'tasks', 'k')).toBe('up');
    expect(translatePaneKey(b, 'team', 'G')).toBe('last');
    expect(translatePaneKey(b, 'runs', 'pagedown')).toBe('page-down');
    expect(translatePaneKey(b, 'runs', 'g')).toBeNull();
    expect(translatePaneKey(b, 'gates', 'v')).toBe('read');
    expect(translatePaneKey(b, 'tasks', 'v')).toBeNull();
    expect(translateGlobalKey(b, 'g')).toBe('grant');
    expect(translateGlobalKey(b, 'tab')).toBe('focus-next');
    expect(translateGlobalKey(b, 'j')).toBeNull();
  });

  it('clamps cursor moves to the list', () => {
    const list = { index: 2, count: 5, page: 3 };
    expect(moveIndex('down', list)).toBe(3);
    expect(moveIndex('down', { ...list, index: 4 })).toBe(4);
    expect(moveIndex('up', { ...list, index: 0 })).toBe(0);
    expect(moveIndex('page-down', list)).toBe(4);
    expect(moveIndex('page-up', list)).toBe(0);
    expect(moveIndex('first', list)).toBe(0);
    expect(moveIndex('last', list)).toBe(4);
    expect(moveIndex('last', { index: 0, count: 0, page: 1 })).toBe(0);
    expect(moveIndex('grant', list)).toBeNull();
  });
});

describe('modal and prompt translation', () => {
  it('y/Enter confirm and n/Esc cancel in a dialog; action keys mean nothing there', () => {
    expect(translateModalKey(b, 'y')).toBe('confirm');
    expect(translateModalKey(b, 'enter')).toBe('confirm');
    expect(translateModalKey(b, 'n')).toBe('cancel');
    expect(translateModalKey(b, 'esc')).toBe('cancel');
    expect(translateModalKey(b, 'g')).toBeNull();
  });

  it('types printable text in a prompt, with Enter, Esc and Backspace as commands', () => {
    expect(translatePromptKey(b, 'q', 'q')).toEqual({ text: 'q' });
    expect(translatePromptKey(b, 'j', 'j')).toEqual({ text: 'j' });
    expect(translatePromptKey(b, 'space', ' ')).toEqual({ text: ' ' });
    expect(translatePromptKey(b, 'enter', '')).toEqual({ command: 'accept' });
    expect(translatePromptKey(b, 'esc', '')).toEqual({ command: 'dismiss' });
    expect(translatePromptKey(b, 'backspace', '')).toEqual({ erase: true });
    expect(translatePromptKey(b, 'delete', '')).toEqual({ erase: true });
    expect(translatePromptKey(b, 'ctrl+a', 'a')).toBeNull();
    // A pasted chunk is typed as it is, minus control characters.
    expect(translatePromptKey(b, 'auth\u0007x', 'auth\u0007x')).toEqual({ text: 'authx' });
  });

  it('Ctrl-C quits from anywhere', () => {
    expect(isForceQuit(b, 'ctrl+c')).toBe(true);
    expect(isForceQuit(b, 'q')).toBe(false);
    expect(isForceQuit(b, null)).toBe(false);
  });
});
