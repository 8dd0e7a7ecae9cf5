import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

// axe-core (Deque's engine, through @axe-core/playwright) over the portal's screens (issue 24): the WCAG 2.1
// A and AA rules only, a screen failing on a serious or critical violation, with a list a person can act on.

/** The rule sets of WCAG 2.0 and 2.1, levels A and AA: what the portal promises (issue 24). */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** What fails a screen: axe's two highest impacts. Moderate and minor ones are reported, not failed. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** The CSS selectors of the offending elements (at most a few per rule, to stay readable). */
  targets: string[];
  /** How many elements break the rule. */
  count: number;
}

export interface AxeOptions {
  /** CSS selectors left out of the check (e.g. a third party's widget inside our page). */
  exclude?: string[];
  /** Only this part of the page (e.g. an open dialog). */
  include?: string;
}

const MAX_TARGETS = 5;

/** Runs axe over the page as it stands (WCAG 2.1 A/AA rules) and answers every violation, worst first. */
export async function axeFindings(page: Page, options: AxeOptions = {}): Promise<AxeFinding[]> {
  // A dialog, drawer or popup fading in is half transparent: its colours are measured once it has settled
  // (CSS transitions only; a spinner's endless animation never ends).
  // Quiet for 300 ms, not only at one instant: a control enabled a moment later (its data arrived) fades
  // from the disabled grey to its colour, and was measured half-way (the image capture's "Use this picture").
  await page
    .waitForFunction(
      () => {
        const state = window as unknown as { axeQuietSince?: number };
        const now = performance.now();
        if (document.getAnimations().some((a) => a instanceof CSSTransition)) {
          state.axeQuietSince = undefined;
          return false;
        }
        state.axeQuietSince ??= now;
        return now - state.axeQuietSince >= 300;
      },
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => undefined);
  let builder = new AxeBuilder({ page }).withTags([...WCAG_21_AA_TAGS]);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const rank = ['critical', 'serious', 'moderate', 'minor'];
  return violations
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      helpUrl: violation.helpUrl,
      // The selector alone is an emotion class name (css-…): the element's markup and axe's own summary
      // (e.g. the two colours and their ratio) say which element it is and why.
      targets: violation.nodes
        .slice(0, MAX_TARGETS)
        .map(
          (node) =>
            `${node.target.join(' ')}  ${node.html.slice(0, 160)}  ${(node.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`,
        ),
      count: violation.nodes.length,
    }))
    .sort((a, b) => rank.indexOf(a.impact) - rank.indexOf(b.impact));
}

/** One line per rule: impact, rule, what it asks, where (the first few elements), and the rule's page. */
export function formatFindings(findings: AxeFinding[]): string {
  return findings
    .map(
      (finding) =>
        `  [${finding.impact}] ${finding.rule}: ${finding.help} (${finding.count} element${
          finding.count === 1 ? '' : 's'
        })\n      ${finding.targets.join('\n      ')}${
          finding.count > finding.targets.length ? '\n      …' : ''
        }\n      ${finding.helpUrl}`,
    )
    .join('\n');
}

/**
 * Checks the page as it stands, named `screen` in the report: a soft failure (the walk goes on to the next
 * screen, the test fails at its end) listing every serious or critical violation; the moderate and minor
 * ones are written as an annotation of the test.
 */
export async function expectAccessible(page: Page, screen: string, options: AxeOptions = {}): Promise<void> {
  const findings = await axeFindings(page, options);
  const failing = findings.filter((finding) => FAILING_IMPACTS.has(finding.impact));
  const lesser = findings.filter((finding) => !FAILING_IMPACTS.has(finding.impact));
  if (lesser.length > 0)
    test.info().annotations.push({
      type: 'axe (moderate/minor)',
      description: `${screen} (${page.url()}):\n${formatFindings(lesser)}`,
    });
  expect
    .soft(
      failing,
      `${screen} (${page.url()}) has serious or critical WCAG 2.1 A/AA violations:\n${formatFindings(failing)}`,
    )
    .toEqual([]);
}

/**
 * A third party's screen (Bull Board, the API reference): checked and its findings kept as an annotation
 * and an attachment, never failing (we do not own its markup; docs/accessibility.md lists them).
 */
export async function reportThirdParty(page: Page, screen: string): Promise<AxeFinding[]> {
  const findings = await axeFindings(page);
  const description = `${screen} (${page.url()}): ${findings.length === 0 ? 'no violations' : `\n${formatFindings(findings)}`}`;
  test.info().annotations.push({ type: 'axe (third party)', description });
  // In the run's output too, where CI keeps it (docs/accessibility.md copies the latest).
  console.warn(`[axe, third party] ${description}`);
  await test.info().attach(`axe-${screen.replace(/\W+/g, '-').toLowerCase()}.json`, {
    body: JSON.stringify(findings, null, 2),
    contentType: 'application/json',
  });
  return findings;
}
