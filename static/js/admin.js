// select2 (the admin's search-as-you-type lists) names its widget after the chosen value
// only: an empty one has no name for a screen reader. The widget and the box showing the
// value take the name of the <select> they stand for (its label, or its column's name).
(function () {
    'use strict';

    function nameOf(select) {
        if (select.getAttribute('aria-label')) return select.getAttribute('aria-label');
        const label = select.id && document.querySelector(`label[for="${select.id}"]`);
        return label ? label.textContent.replace(/:\s*$/, '').trim() : '';
    }

    function name(root) {
        root.querySelectorAll('select.select2-hidden-accessible').forEach((select) => {
            const box = select.nextElementSibling;
            const combobox = box && box.querySelector('[role=combobox]');
            const label = nameOf(select);
            if (!combobox || !label) return;
            // Only where something is missing: the observer below sees these changes too.
            if (combobox.getAttribute('aria-label') !== label) {
                combobox.setAttribute('aria-label', label);
            }
            if (combobox.hasAttribute('aria-labelledby')) {
                combobox.removeAttribute('aria-labelledby');
            }
            combobox.querySelectorAll('[role=textbox]').forEach((value) => {
                if (value.getAttribute('aria-label') !== label) {
                    value.setAttribute('aria-label', label);
                }
            });
        });
    }

    // Whenever select2 builds or redraws a widget: the admin's autocomplete.js builds them
    // once the page is ready, again for each form added to an inline, and redraws the
    // chosen value on every change. An observer's callback runs before anything else reads
    // the page, so no widget is ever seen without its name, however late it was built.
    new MutationObserver(() => name(document)).observe(document.documentElement, {
        childList: true, subtree: true, attributes: true,
        attributeFilter: ['aria-labelledby', 'class'],
    });
    name(document);
}());
