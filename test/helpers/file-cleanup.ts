/** Loaded before every test file (vitest setupFiles): what the helpers recorded is removed after the file. */
import { afterAll } from 'vitest';
import { cleanUpLeftovers } from './leftovers.js';

afterAll(cleanUpLeftovers);
