import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Metrics } from './metrics';

/**
 * docs/grafana/docintel-dashboard.json must only query what the code registers: every metric name
 * in a panel's PromQL (or a variable's query) is one a docintel process exposes, and every label it
 * filters or groups by is one that metric has. Renaming a metric or a label fails here, not on a
 * dashboard that silently goes blank.
 */

const DASHBOARD = join(__dirname, '..', '..', '..', 'docs', 'grafana', 'docintel-dashboard.json');

/** Labels Prometheus adds to every scraped series (target labels), besides the process's `service`. */
const TARGET_LABELS = ['instance', 'job', 'namespace', 'pod'];

/** PromQL words that are not metric names. */
const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'stddev',
  'topk',
  'bottomk',
  'quantile',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'rate',
  'irate',
  'increase',
  'delta',
  'deriv',
  'histogram_quantile',
  'clamp_min',
  'clamp_max',
  'abs',
  'label_values',
  'vector',
  'scalar',
  'time',
  'e',
  'inf',
  'nan',
]);

interface Panel {
  id?: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: Array<{ expr: string; legendFormat?: string; refId: string }>;
  panels?: Panel[];
}

interface Dashboard {
  schemaVersion: number;
  uid: string;
  title: string;
  templating: { list: Array<{ name: string; type: string; query?: string | { query: string } }> };
  panels: Panel[];
}

/** Every metric family a docintel process can register (by name, with its labels), histograms with their series. */
async function catalogue(): Promise<Map<string, Set<string>>> {
  const metrics = new Metrics('catalogue');
  void metrics.jobs;
  void metrics.indexing;
  metrics.watchConsumer('STREAM', 'durable', async () => ({ pending: 0, ackPending: 0, redelivered: 0 }));
  const names = new Map<string, Set<string>>();
  for (const family of await metrics.registry.getMetricsAsJSON()) {
    const metric = metrics.registry.getSingleMetric(family.name) as unknown as { labelNames?: string[] };
    const labels = new Set([...(metric.labelNames ?? []), 'service', ...TARGET_LABELS]);
    // Default metrics may carry labels set by their collector (nodejs_gc_duration_seconds{kind}).
    for (const v of family.values) Object.keys(v.labels).forEach((l) => labels.add(l));
    names.set(family.name, labels);
    if (String(family.type) === 'histogram') {
      names.set(`${family.name}_bucket`, new Set([...labels, 'le']));
      names.set(`${family.name}_sum`, labels);
      names.set(`${family.name}_count`, labels);
    }
  }
  return names;
}

interface Query {
  metrics: Array<{ name: string; matchers: string[] }>;
  grouping: string[];
}

/** The metric selectors and grouping labels of a PromQL expression. */
function parse(expr: string): Query {
  let e = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\[[^\]]*\]/g, '') // ranges: [5m], [$__rate_interval]
    .replace(/\$\{?\w+\}?/g, ''); // dashboard variables
  const grouping: string[] = [];
  e = e.replace(/\b(by|without)\s*\(([^)]*)\)/g, (_m, _kw, labels: string) => {
    grouping.push(
      ...labels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    );
    return ' ';
  });
  const metrics: Query['metrics'] = [];
  e = e.replace(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g, (_m, name: string, body: string) => {
    metrics.push({ name, matchers: [...body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((m) => m[1]) });
    return ' ';
  });
  for (const word of e.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []) {
    if (!PROMQL_WORDS.has(word.toLowerCase())) metrics.push({ name: word, matchers: [] });
  }
  return { metrics, grouping };
}

function panelsOf(panels: Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
}

describe('the Grafana dashboard (docs/grafana/docintel-dashboard.json)', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  const panels = panelsOf(dashboard.panels);
  const queries = panels.filter((p) => p.type !== 'row');

  it('is a Grafana dashboard with a Prometheus data source variable', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toBe('docintel-overview');
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const ids = panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of queries) {
      expect(p.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.gridPos).toBeDefined();
      expect(p.targets?.length).toBeGreaterThan(0);
    }
  });

  it('has the panels operators look for', () => {
    const titles = queries.map((p) => p.title);
    for (const title of [
      'Request rate by route',
      'p95 latency by route',
      '5xx responses by route',
      'RPC handler p95 latency by subject',
      'Jobs finished by kind and status',
      'Job unit p95 duration by kind',
      'Pending messages by consumer',
      'Resident memory',
      'CPU',
      'Event loop lag p99',
    ]) {
      expect(titles).toContain(title);
    }
  });

  it('queries only metrics the code registers, by labels they have', async () => {
    const known = await catalogue();
    const problems: string[] = [];
    const check = (where: string, expr: string, legend?: string) => {
      const { metrics, grouping } = parse(expr);
      if (!metrics.length) problems.push(`${where}: no metric in ${expr}`);
      const available = new Set<string>();
      for (const m of metrics) {
        const labels = known.get(m.name);
        if (!labels) {
          problems.push(`${where}: ${m.name} is not registered by any docintel process`);
          continue;
        }
        labels.forEach((l) => available.add(l));
        for (const l of m.matchers) if (!labels.has(l)) problems.push(`${where}: ${m.name} has no label ${l}`);
      }
      for (const l of grouping) if (!available.has(l)) problems.push(`${where}: groups by ${l}, which none of its metrics has`);
      // A legend can only name labels the result keeps: the grouping labels, when the query aggregates.
      for (const [, l] of legend?.matchAll(/\{\{\s*(\w+)\s*\}\}/g) ?? []) {
        const kept = grouping.length ? new Set(grouping) : available;
        if (!kept.has(l)) problems.push(`${where}: the legend names ${l}, which the query does not keep`);
      }
    };
    for (const p of queries) for (const t of p.targets ?? []) check(`panel "${p.title}" ${t.refId}`, t.expr, t.legendFormat);
    for (const v of dashboard.templating.list) {
      const query = typeof v.query === 'string' ? v.query : v.query?.query;
      const labelValues = query && /^label_values\((\w+),\s*(\w+)\)$/.exec(query);
      if (v.type !== 'query') continue;
      if (!labelValues) {
        problems.push(`variable ${v.name}: expected label_values(metric, label), got ${query}`);
        continue;
      }
      if (!known.get(labelValues[1])?.has(labelValues[2]))
        problems.push(`variable ${v.name}: ${labelValues[1]} has no label ${labelValues[2]}`);
    }
    expect(problems).toEqual([]);
  });

  it('catches a metric the code does not register', async () => {
    const known = await catalogue();
    const { metrics } = parse('sum by (route) (rate(docintel_http_requests_total{service="api-gateway"}[$__rate_interval]))');
    expect(metrics.map((m) => m.name)).toEqual(['docintel_http_requests_total']);
    expect(known.has('docintel_http_requests_total')).toBe(false);
    expect(known.has('docintel_http_request_duration_seconds_bucket')).toBe(true);
  });
});
