/**
 * generateModule prints text statements through placeholders that are spliced in after
 * ts-morph prints the module. User text that looks like a placeholder must come out verbatim.
 */
import { describe, expect, it } from 'vitest';
import { checkSources } from '../../src/index.js';
import { generateModule, typecheckModule } from '../../src/generate/index.js';

const WORLD = `world { org "acme" domain "hr" version "1.0.0" }
context {
  supplied note: "// @adec-part 0" | "plain" = "// @adec-part 0"
}
action review {
  rule marked {
    outcome  YELLOW
    severity t2
    when     note == "// @adec-part 0"
    reason   "// @adec-part 1 is {note}"
  }
}
`;

describe('text that looks like a placeholder', () => {
  it('is kept verbatim and the module still checks', () => {
    const { world, diagnostics } = checkSources({ root: 'w', files: [{ path: 'w/main.adec', text: WORLD }] });
    if (world === undefined) throw new Error(JSON.stringify(diagnostics));
    const source = generateModule(world, { compilerVersion: '0.1.0', sources: ['main.adec'] });
    expect(source).toContain('(ctx.note === "// @adec-part 0") satisfies boolean');
    expect(source).toContain('reason: `// @adec-part 1 is ${ctx.note}`');
    expect(source).toContain('readonly note: "// @adec-part 0" | "plain";');
    expect(source).not.toMatch(/^\/\/ @adec-part \d+$/m);
    expect(typecheckModule(source)).toEqual([]);
  });
});
