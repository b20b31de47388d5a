"""JavaScript read-outs of the viewer's DOM (the class names of docs' viewer contract), shared
by the Lab, page and injection tests."""

from __future__ import annotations

from typing import Any

# What the viewer shows, read from the DOM of the root `.cardlab-viewer` passed in.
SHOWN = """(root) => {
    const seats = {};
    for (const box of root.querySelectorAll('.cardlab-seat')) {
        const cards = Array.from(box.querySelectorAll('.cardlab-hand .cardlab-card'));
        seats[box.dataset.seat] = {
            codes: cards.filter((c) => c.hasAttribute('data-code')).map((c) => c.dataset.code),
            backs: cards.filter((c) => c.classList.contains('cardlab-back')).length,
            backsWithCode: cards.filter((c) => c.classList.contains('cardlab-back') &&
                                                c.hasAttribute('data-code')).length,
            name: (box.querySelector('.cardlab-seat-name') || {}).textContent || null,
        };
    }
    const text = (selector) => {
        const el = root.querySelector(selector);
        return el ? el.textContent : null;
    };
    return {
        step: Number(root.dataset.step),
        seat: root.dataset.seat,
        line: Number(root.dataset.line),
        seats,
        trick: Array.from(root.querySelectorAll('.cardlab-trick .cardlab-card[data-code]'))
            .map((c) => ({code: c.dataset.code, seat: c.dataset.seat,
                          leader: c.classList.contains('cardlab-leader')})),
        current: Array.from(root.querySelectorAll('.cardlab-move.cardlab-current'))
            .map((m) => Number(m.dataset.step)),
        note: text('.cardlab-note'),
        status: text('.cardlab-status'),
        whatif: Array.from(root.querySelectorAll('select.cardlab-whatif option'))
            .map((o) => ({value: o.value, text: o.textContent})),
        // face-up cards a reader cannot name: no accessible name, or no printed mark (the
        // shape or suit that makes a colour readable without colour)
        faceless: Array.from(root.querySelectorAll('.cardlab-card[data-code]'))
            .filter((c) => !c.getAttribute('aria-label') ||
                           !(c.querySelector('.cardlab-mark') || {}).textContent)
            .map((c) => c.dataset.code),
        html: root.outerHTML,
        seatsHtml: Array.from(root.querySelectorAll('.cardlab-seat, .cardlab-trick'))
            .map((el) => el.outerHTML).join(''),
    };
}"""

# The movie that reached the browser (the model's data, not the DOM).
MOVIE = "(root) => root.cardlabModel.get('movie')"

# Is every seat box inside what can be seen? The visible box is the window clipped by every
# ancestor that scrolls or clips (in JupyterLab the notebook scrolls inside its own panel, not
# the window). The table is scrolled to the top of the visible box first, so "inside" means:
# horizontally within it, and the whole table fits its height. A seat is inside when its
# bounding box lies in that visible box (1 px slack for sub-pixel rounding). Buttons whose
# text does not fit (scrollWidth > clientWidth) are listed.
FIT = """(root) => {
    const table = root.querySelector('.cardlab-table') || root;
    table.scrollIntoView({block: 'start', inline: 'nearest'});
    let visible = {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight};
    for (let el = table.parentElement; el && el !== document.documentElement;
         el = el.parentElement) {
        const style = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        // an empty box (Lab's body) clips nothing that is drawn outside it
        if (el !== document.body && r.width > 0 && r.height > 0 &&
                /(auto|scroll|hidden|clip)/.test(style.overflowX + style.overflowY)) {
            visible = {left: Math.max(visible.left, r.left), top: Math.max(visible.top, r.top),
                       right: Math.min(visible.right, r.right),
                       bottom: Math.min(visible.bottom, r.bottom)};
        }
    }
    const outside = [];
    for (const box of root.querySelectorAll('.cardlab-seat')) {
        const r = box.getBoundingClientRect();
        if (r.left < visible.left - 1 || r.right > visible.right + 1 ||
                r.top < visible.top - 1 || r.bottom > visible.bottom + 1) {
            outside.push({seat: box.dataset.seat, left: r.left, right: r.right, top: r.top,
                          bottom: r.bottom});
        }
    }
    const truncated = Array.from(root.querySelectorAll('button'))
        .filter((b) => b.offsetParent !== null && b.scrollWidth > b.clientWidth)
        .map((b) => ({cls: b.className, text: b.textContent, scrollWidth: b.scrollWidth,
                      clientWidth: b.clientWidth}));
    const cards = Array.from(root.querySelectorAll('.cardlab-hand .cardlab-card'))
        .map((c) => c.getBoundingClientRect().height).sort((a, b) => a - b);
    return {visible, outside, truncated, cardHeight: cards[cards.length >> 1],
            seats: root.querySelectorAll('.cardlab-seat').length,
            table: table.getBoundingClientRect().toJSON()};
}"""


# Does each trick card lie in front of its player? Seen from the middle of the trick area, the
# card lies on the side of the table where its player sits: the player's seat box is left,
# right, above or below the table's middle (whichever is the larger offset), and the card is
# that way from the trick area's middle.
TRICK_SIDES = """(root) => {
    const middle = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    const [tx, ty] = middle(root.querySelector('.cardlab-table').getBoundingClientRect());
    const [cx, cy] = middle(root.querySelector('.cardlab-trick').getBoundingClientRect());
    const out = [];
    for (const card of root.querySelectorAll('.cardlab-trick .cardlab-card[data-seat]')) {
        const box = root.querySelector(
            `.cardlab-seat[data-seat="${CSS.escape(card.dataset.seat)}"]`);
        const [sx, sy] = middle(box.getBoundingClientRect());
        const [x, y] = middle(card.getBoundingClientRect());
        const across = Math.abs(sx - tx) >= Math.abs(sy - ty);
        const side = across ? Math.sign(sx - tx) : Math.sign(sy - ty);
        const offset = across ? x - cx : y - cy;
        out.push({seat: card.dataset.seat, code: card.dataset.code,
                  side: (across ? (side < 0 ? 'left' : 'right') : (side < 0 ? 'top' : 'bottom')),
                  inFront: Math.sign(offset) === side});
    }
    return out;
}"""


# WCAG text contrast measured on the rendered page, for every visible text of the viewer:
# axe-core gives up ("incomplete") on text over a gradient or over another element, which is
# the table's centre, the very text the issue found unreadable in Lab's light theme. The text
# colour (with the opacity of its ancestors) is laid over each background it can stand on:
# the layers from the element up to the first opaque colour, a gradient contributing each of
# its colour stops. The worst ratio must reach 4.5:1 (3:1 for large text: 24 px, or 18.66 px
# bold). Disabled controls are exempt (WCAG 1.4.3).
CONTRAST = """(root) => {
    const parse = (text) => {
        const m = text.match(/rgba?\\(([^)]+)\\)/);
        if (!m) return null;
        const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
        return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
    };
    const stops = (image) => (image.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
    const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a),
        g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1});
    const lum = (c) => {
        const f = (v) => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
    };
    const backgrounds = (el) => {
        const layers = [];
        let opacity = 1;
        for (let node = el; node; node = node.parentElement) {
            const style = getComputedStyle(node);
            opacity *= Number(style.opacity);
            const image = stops(style.backgroundImage);
            const colour = parse(style.backgroundColor);
            if (image.length) layers.push(image);
            if (colour && colour.a > 0) {
                layers.push([colour]);
                if (colour.a === 1) break;
            }
        }
        let under = [{r: 255, g: 255, b: 255, a: 1}];
        for (const layer of layers.reverse()) {
            under = layer.flatMap((top) => under.map((u) => over(top, u)));
        }
        return [under, opacity];
    };
    const failures = [];
    let checked = 0;
    for (const el of root.querySelectorAll('*')) {
        const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own || el.closest('[hidden], [aria-hidden="true"], :disabled, option')) continue;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (!box.width || !box.height || style.visibility !== 'visible') continue;
        checked += 1;
        const [under, opacity] = backgrounds(el);
        const ink = parse(style.color);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        const need = large ? 3 : 4.5;
        const seen = {...ink, a: ink.a * opacity};
        const worst = Math.min(...under.map((bg) => ratio(over(seen, bg), bg)));
        if (worst < need) {
            failures.push({text: el.textContent.trim().slice(0, 40), cls: el.className,
                           color: style.color, ratio: Math.round(worst * 100) / 100, need});
        }
    }
    return {checked, failures};
}"""


def shown(root: Any) -> dict[str, Any]:
    """What the viewer (a Playwright locator of `.cardlab-viewer`) shows now."""
    return root.evaluate(SHOWN)


def wait_step(page: Any, root_selector: str, step: int, timeout: int = 10_000) -> None:
    page.wait_for_function(
        "([sel, step]) => { const r = document.querySelector(sel);"
        " return r && Number(r.dataset.step) === step; }", arg=[root_selector, step],
        timeout=timeout)


def check_accessible(page: Any, root: Any, context: str) -> None:
    """axe-core finds nothing serious or critical in the elements ``context`` (a selector) of
    ``page``, and every text of ``root`` (a locator) reaches AA contrast (``CONTRAST``)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=context)
    serious = [v for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, results.generate_report()
    contrast = root.evaluate(CONTRAST)
    assert not contrast["failures"], contrast["failures"]


# What the move list shows a reader: only what is drawn (a hidden move, note or stretch of
# moves takes no room on the page), and the state of its "show moves to come" toggle. (In
# JupyterLab, scroll the viewer into sight first: Lab does not draw cells out of sight.)
MOVE_LIST = """(root) => {
    const list = root.querySelector('.cardlab-moves');
    const drawn = (el) => !el.closest('[hidden]') && el.getClientRects().length > 0;
    const all = (selector) => Array.from(list.querySelectorAll(selector)).filter(drawn);
    const toggle = root.querySelector('input.cardlab-future-toggle');
    return {
        moves: all('.cardlab-move').map((m) => [Number(m.dataset.line), Number(m.dataset.step),
                                                m.textContent]),
        notes: all('.cardlab-move-note').map((n) => n.textContent),
        later: all('.cardlab-later').map((n) => n.textContent),
        heads: all('.cardlab-hand-head').map((h) => h.textContent),
        text: list.innerText,
        toggle: {checked: toggle.checked, disabled: toggle.disabled, shown: drawn(toggle)},
    };
}"""


def move_list(root: Any) -> dict[str, Any]:
    """What the move list of the viewer (a locator of `.cardlab-viewer`) shows now."""
    return root.evaluate(MOVE_LIST)  # type: ignore[no-any-return]
