// medbench viewer: one page, hash routes, data from /api (server) or data/*.js (static site).
// Every value from the store is rendered with textContent or SVG text nodes, never as HTML.
(() => {
  const STATIC = document.body.dataset.mode === 'static';
  const app = document.getElementById('app');
  const SVG = 'http://www.w3.org/2000/svg';

  // ---------- data ----------
  const staticWaiters = new Map();
  window.medbenchStatic = (key, payload) => {
    const waiter = staticWaiters.get(key);
    if (waiter) waiter(payload);
  };
  function fnv(text) {
    let hash = 2166136261;
    for (let index = 0; index < text.length; index++)
      hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
    return (hash >>> 0).toString(16).padStart(8, '0');
  }
  function staticKey(route, parameters) {
    const query = Object.keys(parameters)
      .sort()
      .map((name) => `${name}=${parameters[name]}`)
      .join('&');
    return `${route}-${fnv(`${route}?${query}`)}`;
  }
  const memo = new Map();
  function api(route, parameters = {}) {
    const id = `${route}?${new URLSearchParams(parameters)}`;
    if (memo.has(id)) return memo.get(id);
    let promise;
    if (STATIC) {
      const key = staticKey(route, parameters);
      promise = new Promise((resolve, reject) => {
        staticWaiters.set(key, resolve);
        const script = document.createElement('script');
        script.src = `data/${key}.js`;
        script.onerror = () => reject(new Error('Not in this report.'));
        document.head.append(script);
      });
    } else {
      promise = fetch(`api/${route}?${new URLSearchParams(parameters)}`).then((response) =>
        response.ok
          ? response.json()
          : Promise.reject(new Error(response.status === 404 ? 'Not found.' : `HTTP ${response.status}`)),
      );
    }
    memo.set(id, promise);
    promise.catch(() => memo.delete(id));
    return promise;
  }

  // ---------- DOM helpers ----------
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      // CSSOM, not a style attribute: the page's Content-Security-Policy forbids inline style attributes.
      else if (name === 'style') Object.assign(node.style, value);
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, String(value));
    }
    for (const child of children.flat())
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    return node;
  }
  function svg(tag, attributes = {}, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function href(route, parameters = {}) {
    const query = new URLSearchParams(
      Object.entries(parameters).filter(([, value]) => value !== undefined && value !== ''),
    );
    const text = query.toString();
    return `#/${route}${text ? `?${text}` : ''}`;
  }
  const link = (text, route, parameters, attributes = {}) =>
    el('a', { href: href(route, parameters), text, ...attributes });
  const percent = (value) =>
    value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(2);
  const fraction = (value) =>
    value === null || value === undefined || Number.isNaN(value) ? '—' : (100 * value).toFixed(1);

  // Viridis stops: perceptually uniform and readable with colour-blindness; the value is always written beside it.
  const VIRIDIS = [
    '#440154',
    '#482878',
    '#3e4989',
    '#31688e',
    '#26828e',
    '#1f9e89',
    '#35b779',
    '#6ece58',
    '#b5de2b',
    '#fde725',
  ];
  function colour(fractionValue) {
    const clamped = Math.max(0, Math.min(1, fractionValue));
    return VIRIDIS[Math.min(VIRIDIS.length - 1, Math.floor(clamped * VIRIDIS.length))];
  }
  const textOn = (fractionValue) => (fractionValue > 0.55 ? '#111' : '#fff');
  const swatch = (fractionValue) =>
    el('span', { class: 'swatch', style: { background: colour(fractionValue) }, 'aria-hidden': 'true' });

  function render(...nodes) {
    app.replaceChildren(
      ...nodes.flat(Number.POSITIVE_INFINITY).filter((node) => node !== null && node !== undefined),
    );
    app.focus({ preventScroll: true });
  }
  function failure(error) {
    render(el('h1', { text: 'Nothing to show' }), el('p', { text: error.message }));
  }

  // ---------- pages ----------
  async function navigation() {
    const overview = await api('overview');
    const nav = document.getElementById('suites');
    nav.replaceChildren(
      ...overview.suites.map((entry) =>
        link(
          `${{ medodyssey: 'MedOdyssey', medeureka: 'MedEureka', clue: 'CLUE' }[entry.suite]} (${entry.runs.length})`,
          'leaderboard',
          { suite: entry.suite },
        ),
      ),
    );
    return overview;
  }

  async function leaderboardPage(query) {
    const overview = await navigation();
    const suite =
      query.get('suite') || overview.suites.find((entry) => entry.runs.length > 0)?.suite || 'medodyssey';
    const board = await api('leaderboard', { suite });
    const variantKey = query.get('variant') || board.variants[0]?.key;
    const variant = board.variants.find((item) => item.key === variantKey) || board.variants[0];
    const heading = el('h1', { text: `Leaderboard — ${suite}` });
    if (!variant || board.rows.length === 0)
      return render(heading, el('p', { text: 'No runs of this suite in the store.' }));
    const select = el(
      'select',
      {
        id: 'variant',
        'aria-label': 'Metric',
        onchange: (event) => (location.hash = href('leaderboard', { suite, variant: event.target.value })),
      },
      board.variants.map((item) =>
        el('option', { value: item.key, text: item.label, selected: item.key === variant.key }),
      ),
    );
    const table = el(
      'table',
      { id: 'leaderboard' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col', text: 'Model' }),
          el('th', { scope: 'col', text: 'Samples' }),
          variant.columns.map((column) => el('th', { scope: 'col', text: column.label })),
        ),
      ),
      el(
        'tbody',
        {},
        board.rows.map((row) =>
          el(
            'tr',
            {},
            el(
              'th',
              { scope: 'row' },
              link(row.label, 'run', { id: row.runId }),
              row.imported ? el('span', { class: 'imported', text: 'imported' }) : null,
            ),
            el('td', { text: row.samples }),
            variant.columns.map((column) => {
              const value = row.values[variant.key]?.[column.key];
              return el(
                'td',
                { class: 'cell', 'data-column': column.key },
                value === null || value === undefined ? '—' : [swatch(value / 100), percent(value)],
              );
            }),
          ),
        ),
      ),
    );
    render(
      heading,
      el('div', { class: 'controls' }, el('label', { for: 'variant', text: 'Metric ' }), select),
      el('p', {
        class: 'muted',
        text: 'Scores in percent. Imported rows are the published model outputs re-scored by medbench.',
      }),
      table,
    );
  }

  /** A mean of counts (KG true positives per sample …), never a percentage. */
  function countText(value) {
    return Number.isFinite(value) ? value.toFixed(2) : '—';
  }

  function estimateText(estimate) {
    if (!estimate || estimate.n === 0) return '—';
    return `${fraction(estimate.mean)} [${fraction(estimate.low)}, ${fraction(estimate.high)}] n=${estimate.n}`;
  }

  function heatmap(runId, group) {
    const grid = group.grid;
    const table = el(
      'table',
      { class: 'heatmap', 'aria-label': `${group.group} ${grid.metric} by depth and length` },
      el('caption', { text: `${grid.metric.toUpperCase()} (%) by depth × length, 95% bootstrap interval` }),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { text: 'Depth \\ length' }),
          grid.levels.map((level) => el('th', { scope: 'col', text: level })),
        ),
      ),
      el(
        'tbody',
        {},
        grid.depths.map((depth) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row', text: `${depth}%` }),
            grid.levels.map((level) => {
              const cell = grid.cells[`${depth}|${level}`];
              if (!cell) return el('td', { class: 'cell', text: '—' });
              return el(
                'td',
                { class: 'cell', style: { background: colour(cell.mean), color: textOn(cell.mean) } },
                el(
                  'a',
                  {
                    href: href('samples', { run: runId, group: group.group, level, depth }),
                    'data-cell': `${depth}|${level}`,
                    title: estimateText(cell),
                  },
                  fraction(cell.mean),
                  el('span', { class: 'ci', text: `[${fraction(cell.low)}, ${fraction(cell.high)}]` }),
                ),
              );
            }),
          ),
        ),
      ),
    );
    return table;
  }

  function lineChart(title, points, xLabel) {
    const width = 460;
    const height = 220;
    const left = 44;
    const top = 28;
    const plotWidth = width - left - 20;
    const plotHeight = height - top - 40;
    const x = (index) =>
      left + (points.length === 1 ? plotWidth / 2 : (index * plotWidth) / (points.length - 1));
    const y = (value) => top + plotHeight - value * plotHeight;
    const chart = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': title,
    });
    chart.append(svg('text', { x: 8, y: 16, 'font-size': 13, 'font-weight': 600 }, title));
    for (const tick of [0, 0.5, 1]) {
      chart.append(svg('line', { x1: left, x2: left + plotWidth, y1: y(tick), y2: y(tick), stroke: '#ddd' }));
      chart.append(
        svg('text', { x: left - 6, y: y(tick) + 3, 'font-size': 10, 'text-anchor': 'end' }, tick * 100),
      );
    }
    points.forEach((point, index) => {
      chart.append(
        svg('line', {
          x1: x(index),
          x2: x(index),
          y1: y(point.low),
          y2: y(point.high),
          stroke: '#31688e',
          'stroke-width': 2,
        }),
      );
      chart.append(svg('circle', { cx: x(index), cy: y(point.mean), r: 3.5, fill: '#440154' }));
      chart.append(
        svg(
          'text',
          { x: x(index), y: top + plotHeight + 14, 'font-size': 10, 'text-anchor': 'middle' },
          point.label,
        ),
      );
      chart.append(
        svg('text', { x: x(index) + 4, y: y(point.mean) - 5, 'font-size': 9 }, fraction(point.mean)),
      );
    });
    chart.append(
      svg('polyline', {
        points: points.map((point, index) => `${x(index)},${y(point.mean)}`).join(' '),
        fill: 'none',
        stroke: '#440154',
        'stroke-width': 1.5,
      }),
    );
    chart.append(
      svg(
        'text',
        { x: left + plotWidth / 2, y: height - 6, 'font-size': 10, 'text-anchor': 'middle' },
        xLabel,
      ),
    );
    return chart;
  }

  /** A radar over the suite's leaderboard columns for one run (values 0–100), each axis labelled with its value. */
  function radar(title, axes, values) {
    const size = 420;
    const centre = size / 2;
    const radius = 140;
    const chart = svg('svg', {
      viewBox: `0 0 ${size} ${size}`,
      width: size,
      height: size,
      role: 'img',
      'aria-label': title,
    });
    chart.append(svg('text', { x: 8, y: 16, 'font-size': 13, 'font-weight': 600 }, title));
    const point = (index, value) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * index) / axes.length;
      return [centre + Math.cos(angle) * radius * value, centre + 10 + Math.sin(angle) * radius * value];
    };
    for (const ring of [0.25, 0.5, 0.75, 1])
      chart.append(
        svg('polygon', {
          points: axes.map((_, index) => point(index, ring).join(',')).join(' '),
          fill: 'none',
          stroke: '#ddd',
        }),
      );
    axes.forEach((axis, index) => {
      const [x, y] = point(index, 1.18);
      const value = values[index];
      chart.append(
        svg(
          'text',
          { x, y, 'font-size': 10, 'text-anchor': 'middle' },
          `${axis} ${value === null || value === undefined ? '—' : value.toFixed(1)}`,
        ),
      );
    });
    // A missing value is not 0: the polygon joins the axes that have values, each marked with a dot.
    const present = axes.flatMap((_, index) =>
      values[index] === null || values[index] === undefined ? [] : [point(index, values[index] / 100)],
    );
    chart.append(
      svg('polygon', {
        points: present.map((item) => item.join(',')).join(' '),
        fill: '#31688e55',
        stroke: '#31688e',
        'stroke-width': 2,
      }),
    );
    for (const [x, y] of present) chart.append(svg('circle', { cx: x, cy: y, r: 3, fill: '#31688e' }));
    return chart;
  }

  async function runPage(query) {
    await navigation();
    const runId = query.get('id');
    const summary = await api('run', { id: runId });
    const overview = await api('overview');
    // Compare within one suite and dataset; same-label runs are told apart by id, date and source.
    const peers = (overview.suites.find((entry) => entry.suite === summary.run.suite)?.runs ?? []).filter(
      (run) => run.id !== runId && run.datasetId === summary.run.datasetId,
    );
    const sections = summary.groups.map((group) => {
      const metricRows = Object.entries(group.metrics).map(([metric, estimate]) => {
        // Fractions read as percent; counts (KG true/false positives) as means of counts.
        const show = group.fractional.includes(metric)
          ? fraction
          : (value) => (Number.isNaN(value) ? '—' : value.toFixed(2));
        return el(
          'tr',
          {},
          el('td', { text: group.metricNames?.[metric] ?? metric }),
          el('td', { text: show(estimate.mean) }),
          el('td', { text: `[${show(estimate.low)}, ${show(estimate.high)}]` }),
          el('td', { text: estimate.n }),
        );
      });
      const compareSelect = el(
        'select',
        {
          'aria-label': `Compare ${group.group} with`,
          onchange: (event) => {
            if (event.target.value)
              location.hash = href('compare', { a: runId, b: event.target.value, group: group.group });
          },
        },
        el('option', { value: '', text: 'Compare with…' }),
        peers.map((peer) =>
          el('option', {
            value: peer.id,
            text: `${peer.label} — ${peer.id.slice(0, 8)} · ${peer.createdAt.slice(0, 10)} · ${peer.imported ? 'imported' : 'run by medbench'}`,
          }),
        ),
      );
      return el(
        'section',
        { 'data-group': group.group },
        el('h2', { text: `${group.title ?? group.group} — ${group.samples} samples` }),
        el(
          'div',
          { class: 'controls' },
          link('Samples', 'samples', { run: runId, group: group.group }),
          compareSelect,
          el('span', {
            class: 'muted',
            text: [
              ...Object.entries(group.statuses).map(([status, count]) => `${status} ${count}`),
              ...(group.excluded > 0 ? [`${group.excluded} beyond the model's window, not counted (—)`] : []),
            ].join(' · '),
          }),
        ),
        group.figures && group.figures.length > 0
          ? el(
              'table',
              { class: 'figures', 'aria-label': `${group.group}: the report's figures` },
              el('caption', { text: "The report's figures (the paper's tables)" }),
              el(
                'tbody',
                {},
                group.figures.map((figure) =>
                  el(
                    'tr',
                    {},
                    el('th', { scope: 'row', text: figure.name }),
                    el('td', {
                      text:
                        figure.value === null
                          ? '—'
                          : figure.unit === '%'
                            ? figure.value.toFixed(2)
                            : String(figure.value),
                    }),
                  ),
                ),
              ),
            )
          : null,
        el(
          'table',
          { class: 'metrics' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ['Metric', 'Mean (% for rates)', '95% CI', 'n'].map((text) => el('th', { text })),
            ),
          ),
          el('tbody', {}, metricRows),
        ),
        group.grid ? heatmap(runId, group) : null,
        group.byLevel
          ? lineChart(
              `${group.primary} against length`,
              Object.entries(group.byLevel).map(([level, estimate]) => ({ label: level, ...estimate })),
              'context length (tokens)',
            )
          : null,
        group.curve
          ? lineChart(
              'Exact HR@n',
              group.curve.map((point) => ({ label: point.cutoff, ...point })),
              'n',
            )
          : null,
      );
    });
    const run = summary.run;
    const board = await api('leaderboard', { suite: run.suite });
    const boardRow = board.rows.find((row) => row.runId === runId);
    const variant = board.variants[0];
    const axes = variant ? variant.columns.filter((column) => column.key !== 'Avg.') : [];
    const radarChart =
      boardRow && axes.length >= 3
        ? radar(
            `${variant.label} across datasets`,
            axes.map((column) => column.label),
            axes.map((column) => boardRow.values[variant.key]?.[column.key]),
          )
        : null;
    render(
      el(
        'h1',
        { text: `${run.label}` },
        run.imported ? el('span', { class: 'imported', text: 'imported' }) : null,
      ),
      el(
        'dl',
        {},
        el('dt', { text: 'Run' }),
        el('dd', { text: run.id }),
        el('dt', { text: 'Suite' }),
        el('dd', {}, link(run.suite, 'leaderboard', { suite: run.suite })),
        el('dt', { text: 'Model' }),
        el('dd', { text: JSON.stringify(run.model) }),
        el('dt', { text: 'Source' }),
        el('dd', {
          text: `${run.imported ? 'imported outputs' : 'run by medbench'} · scoring ${run.scoringMode}`,
        }),
        el('dt', { text: 'Parameters' }),
        el('dd', { class: 'text', text: JSON.stringify(run.parameters) }),
        el('dt', { text: 'Samples' }),
        el('dd', {
          text: [
            summary.samples,
            ...Object.entries(summary.statuses).map(([status, count]) => `${status} ${count}`),
          ].join(' · '),
        }),
        el('dt', { text: 'Tokens and cost' }),
        el('dd', {
          text:
            summary.usage.inputTokens === null
              ? '— (not recorded)'
              : `${summary.usage.inputTokens} in / ${summary.usage.outputTokens ?? '—'} out; cost ${summary.usage.cost === null ? '—' : summary.usage.cost.toFixed(4)}`,
        }),
      ),
      radarChart,
      sections,
    );
  }

  const PAGE = 100;
  async function samplesPage(query) {
    await navigation();
    const runId = query.get('run');
    const group = query.get('group');
    const filters = {
      level: query.get('level') || '',
      depth: query.get('depth') || '',
      status: query.get('status') || '',
      q: query.get('q') || '',
    };
    const offset = Number(query.get('offset') || 0);
    // The server sends one filtered page; the static site has the whole group, filtered here alike.
    const list = await api(
      'samples',
      STATIC ? { run: runId, group } : { run: runId, group, ...filters, offset, limit: PAGE },
    );
    const matching = list.complete
      ? list.rows.filter(
          (row) =>
            (!filters.level || String(row.params.level) === filters.level) &&
            (!filters.depth || String(row.params.depth) === filters.depth) &&
            (!filters.status || row.status === filters.status) &&
            (!filters.q ||
              row.id.toLocaleLowerCase().includes(filters.q.toLocaleLowerCase()) ||
              JSON.stringify(row.params).toLocaleLowerCase().includes(filters.q.toLocaleLowerCase())),
        )
      : null;
    const matched = matching ? matching.length : list.matched;
    const setFilter = (name, value) =>
      (location.hash = href('samples', { run: runId, group, ...filters, [name]: value, offset: 0 }));
    const options = (name) => list.options[name];
    const filterSelect = (name) =>
      el(
        'label',
        {},
        `${name} `,
        el(
          'select',
          { onchange: (event) => setFilter(name, event.target.value) },
          el('option', { value: '', text: 'all' }),
          options(name).map((value) =>
            el('option', { value, text: value, selected: String(value) === filters[name] }),
          ),
        ),
      );
    const primary = list.primary;
    const page = matching ? matching.slice(offset, offset + PAGE) : list.rows;
    render(
      el('h1', {}, link(list.run.label, 'run', { id: runId }), ` — ${list.title ?? group}`),
      el(
        'div',
        { class: 'controls' },
        filterSelect('status'),
        options('level').length ? filterSelect('level') : null,
        options('depth').length ? filterSelect('depth') : null,
        el(
          'label',
          {},
          'search ',
          el('input', {
            type: 'search',
            value: filters.q,
            onchange: (event) => setFilter('q', event.target.value),
          }),
        ),
        el('span', {
          class: 'muted',
          id: 'sample-count',
          text: `${matched} of ${list.total} samples`,
        }),
      ),
      el(
        'table',
        { id: 'samples' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Sample', 'Parameters', 'Status', primary || 'score', 'Prompt chars'].map((text) =>
              el('th', { text }),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          page.map((row) =>
            el(
              'tr',
              {},
              el('td', {}, link(row.id, 'sample', { run: runId, id: row.id, ...filters })),
              el('td', {
                class: 'text',
                text: Object.entries(row.params)
                  .filter(([, value]) => typeof value !== 'object')
                  .map(([key, value]) => `${key}=${value}`)
                  .join(' '),
              }),
              el('td', { class: `status-${row.status}`, text: row.status }),
              el('td', { text: primary && row.scores[primary] !== undefined ? row.scores[primary] : '—' }),
              el('td', { text: row.promptChars ?? '—' }),
            ),
          ),
        ),
      ),
      el(
        'div',
        { class: 'controls' },
        offset > 0
          ? link('← previous', 'samples', {
              run: runId,
              group,
              ...filters,
              offset: Math.max(0, offset - PAGE),
            })
          : null,
        offset + PAGE < matched
          ? link('next →', 'samples', { run: runId, group, ...filters, offset: offset + PAGE })
          : null,
      ),
    );
  }

  /** The prompt as text nodes with <mark> around highlights and search hits; built only when unfolded. */
  function promptView(prompt, highlights) {
    const container = el('pre', { id: 'prompt', tabindex: 0 });
    let current = -1;
    let marks = [];
    const search = el('input', {
      type: 'search',
      id: 'prompt-search',
      placeholder: 'Search the prompt',
      'aria-label': 'Search the prompt',
    });
    const counter = el('span', { class: 'muted', 'aria-live': 'polite' });
    function paint(terms) {
      const ranges = [];
      for (const term of terms) {
        if (!term) continue;
        let start = prompt.indexOf(term);
        while (start !== -1 && ranges.length < 2000) {
          ranges.push([start, start + term.length]);
          start = prompt.indexOf(term, start + term.length);
        }
      }
      ranges.sort((a, b) => a[0] - b[0]);
      const fragment = document.createDocumentFragment();
      let cursor = 0;
      marks = [];
      for (const [start, end] of ranges) {
        if (start < cursor) continue;
        fragment.append(prompt.slice(cursor, start));
        const mark = el('mark', { text: prompt.slice(start, end) });
        marks.push(mark);
        fragment.append(mark);
        cursor = end;
      }
      fragment.append(prompt.slice(cursor));
      container.replaceChildren(fragment);
      current = -1;
      counter.textContent = `${marks.length} highlighted`;
    }
    function step() {
      if (marks.length === 0) return;
      marks[current]?.classList.remove('current');
      current = (current + 1) % marks.length;
      marks[current].classList.add('current');
      marks[current].scrollIntoView({ block: 'center' });
      counter.textContent = `${current + 1} of ${marks.length}`;
    }
    search.addEventListener('change', () => paint(search.value ? [search.value] : highlights));
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        if (search.value && counter.textContent.endsWith('highlighted')) paint([search.value]);
        step();
      }
    });
    const details = el(
      'details',
      { id: 'prompt-details' },
      el('summary', { text: `Prompt (${prompt.length.toLocaleString('en')} characters)` }),
    );
    details.addEventListener('toggle', () => {
      if (details.open && !container.firstChild) paint(highlights);
    });
    details.append(
      el(
        'div',
        { class: 'controls' },
        search,
        el('button', { type: 'button', onclick: step, text: 'Next match' }),
        counter,
      ),
      container,
    );
    return details;
  }

  const pretty = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

  async function samplePage(query) {
    await navigation();
    const runId = query.get('run');
    // The list's filters travel with the sample, so prev/next walk the same filtered list.
    const filters = Object.fromEntries(
      ['level', 'depth', 'status', 'q']
        .filter((name) => query.get(name))
        .map((name) => [name, query.get(name)]),
    );
    const sample = await api(
      'sample',
      STATIC ? { run: runId, id: query.get('id') } : { run: runId, id: query.get('id'), ...filters },
    );
    const step = (id, text) =>
      id ? link(text, 'sample', { run: runId, id, ...filters }) : el('span', { class: 'muted', text });
    // The question closes every prompt of these suites; the last lines are shown when no parameter holds it.
    const question =
      typeof sample.params.question === 'string'
        ? sample.params.question
        : sample.prompt
          ? sample.prompt.slice(-600).split('\n').slice(-6).join('\n').trim()
          : null;
    render(
      el(
        'h1',
        {},
        link(sample.run.label, 'run', { id: runId }),
        ' — ',
        link(sample.title ?? sample.group, 'samples', { run: runId, group: sample.group, ...filters }),
        ` — ${sample.id}`,
      ),
      el(
        'nav',
        { class: 'controls', id: 'sample-steps', 'aria-label': 'Samples in this list' },
        step(sample.neighbours?.previous, '← previous'),
        step(sample.neighbours?.next, 'next →'),
        // The static site holds no lists beside a sample: there prev/next step through the whole group.
        STATIC
          ? el('span', { class: 'muted', text: 'in the whole group' })
          : Object.keys(filters).length > 0
            ? el('span', {
                class: 'muted',
                text: `within ${Object.entries(filters)
                  .map(([name, value]) => `${name} ${value}`)
                  .join(', ')}`,
              })
            : null,
      ),
      el(
        'dl',
        { id: 'sample-facts' },
        el('dt', { text: 'Status' }),
        el('dd', { class: `status-${sample.status}`, id: 'sample-status', text: sample.status }),
        el('dt', { text: 'Parameters' }),
        el('dd', {
          text: Object.entries(sample.params)
            .filter(([, value]) => typeof value !== 'object')
            .map(([key, value]) => `${key}=${value}`)
            .join(' '),
        }),
        el('dt', { text: 'Tokens' }),
        el('dd', {
          text: `prompt ${sample.promptTokens ?? '—'} · input ${sample.inputTokens ?? '—'} · output ${sample.outputTokens ?? '—'}`,
        }),
        el('dt', { text: 'Cost' }),
        el('dd', { text: sample.cost === null ? '—' : `$${sample.cost.toFixed(6)}` }),
        sample.error ? [el('dt', { text: 'Error' }), el('dd', { text: sample.error })] : null,
      ),
      question
        ? [el('h2', { text: 'Question (end of the prompt)' }), el('pre', { id: 'question', text: question })]
        : null,
      el('h2', { text: 'Gold' }),
      el('pre', { id: 'gold', text: pretty(sample.gold) }),
      el('h2', { text: 'Raw output' }),
      el('pre', { id: 'raw-output', text: sample.rawOutput ?? '(no model output)' }),
      el('h2', { text: 'Parsed answer' }),
      el('pre', { id: 'parsed', text: pretty(sample.parsed) }),
      el('h2', { text: 'Metrics' }),
      el(
        'table',
        { id: 'sample-scores' },
        el(
          'tbody',
          {},
          Object.entries(sample.scores).map(([metric, value]) =>
            el('tr', {}, el('th', { scope: 'row', text: metric }), el('td', { text: value })),
          ),
        ),
      ),
      sample.prompt
        ? promptView(sample.prompt, sample.highlights)
        : el('p', { class: 'muted', text: 'No prompt stored.' }),
    );
  }

  async function comparePage(query) {
    await navigation();
    const parameters = { a: query.get('a'), b: query.get('b'), group: query.get('group') };
    const comparison = await api('compare', parameters);
    render(
      el('h1', {
        text: `${comparison.a.label} vs ${comparison.b.label} — ${comparison.title ?? comparison.group}`,
      }),
      el('p', { text: `${comparison.paired} paired samples. Difference = B − A.` }),
      el(
        'table',
        { id: 'comparison' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Metric', `A: ${comparison.a.label}`, `B: ${comparison.b.label}`, 'B − A', 'Test', 'p'].map(
              (text) => el('th', { text }),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          comparison.metrics.map((metric) =>
            el(
              'tr',
              {},
              el('td', { text: comparison.metricNames?.[metric.metric] ?? metric.metric }),
              el('td', { text: (metric.counts ? countText : fraction)(metric.meanA) }),
              el('td', { text: (metric.counts ? countText : fraction)(metric.meanB) }),
              el('td', {
                text: (() => {
                  const show = metric.counts ? countText : fraction;
                  return metric.low === undefined
                    ? show(metric.difference)
                    : `${show(metric.difference)} [${show(metric.low)}, ${show(metric.high)}]`;
                })(),
              }),
              el('td', {
                class: 'text',
                text:
                  metric.onlyA === undefined
                    ? metric.test
                    : `${metric.test}: A only ${metric.onlyA}, B only ${metric.onlyB}`,
              }),
              el('td', { text: metric.p < 0.001 ? '< 0.001' : metric.p.toFixed(3) }),
            ),
          ),
        ),
      ),
      el('h2', { text: `Where they disagree (${comparison.disagreements.length})` }),
      el(
        'table',
        { id: 'disagreements' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Sample', 'A', 'B'].map((text) => el('th', { text })),
          ),
        ),
        el(
          'tbody',
          {},
          comparison.disagreements.map((row) =>
            el(
              'tr',
              {},
              el('td', { class: 'text' }, row.id),
              el('td', {}, link(JSON.stringify(row.a), 'sample', { run: comparison.a.id, id: row.id })),
              el('td', {}, link(JSON.stringify(row.b), 'sample', { run: comparison.b.id, id: row.id })),
            ),
          ),
        ),
      ),
    );
  }

  const ROUTES = {
    '': leaderboardPage,
    leaderboard: leaderboardPage,
    run: runPage,
    samples: samplesPage,
    sample: samplePage,
    compare: comparePage,
  };
  function route() {
    const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
    const page = ROUTES[path] || leaderboardPage;
    page(new URLSearchParams(search || '')).catch(failure);
  }
  window.addEventListener('hashchange', route);
  route();
})();
