import { describe, expect, it } from 'vitest';
import { sampleScenario, sampleWorkspace } from '../test-support';
import { hasWorkToLose, linkOf } from './share';

describe('share links in the address bar', () => {
  it('recognises a share link and a blank-session link, and nothing else', () => {
    expect(linkOf('#share=1.AAAA')).toEqual({ kind: 'share', fragment: 'share=1.AAAA' });
    expect(linkOf('#blank')).toEqual({ kind: 'blank' });
    expect(linkOf('#trace-search')).toBeNull();
    expect(linkOf('')).toBeNull();
  });

  it('asks before replacing loaded files or edited contracts, not a workspace of built-ins', () => {
    expect(hasWorkToLose(sampleWorkspace())).toBe(false);
    expect(hasWorkToLose(sampleWorkspace({ scenarios: [sampleScenario({ contractEdited: true })] }))).toBe(true);
    expect(
      hasWorkToLose(
        sampleWorkspace({ scenarios: [sampleScenario(), sampleScenario({ key: 'loaded:x', origin: 'loaded' })] }),
      ),
    ).toBe(true);
  });
});
