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


def shown(root: Any) -> dict[str, Any]:
    """What the viewer (a Playwright locator of `.cardlab-viewer`) shows now."""
    return root.evaluate(SHOWN)


def wait_step(page: Any, root_selector: str, step: int, timeout: int = 10_000) -> None:
    page.wait_for_function(
        "([sel, step]) => { const r = document.querySelector(sel);"
        " return r && Number(r.dataset.step) === step; }", arg=[root_selector, step],
        timeout=timeout)
