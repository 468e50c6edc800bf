import { z } from 'zod';

/**
 * zod decides whether a schema may compile its parser with `new Function` when the schema is built, not
 * when it parses, so this must run before any module that builds a schema: every entry point (page,
 * worker, CLI) imports this module first. Nothing in this project evaluates generated code: the page's
 * CSP forbids it, and the worker and the CLI keep the same rule so all three behave alike.
 */
z.config({ jitless: true });
