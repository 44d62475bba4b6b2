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
            if (combobox && label) {
                combobox.setAttribute('aria-label', label);
                combobox.removeAttribute('aria-labelledby');
                combobox.querySelectorAll('[role=textbox]').forEach(
                    (value) => value.setAttribute('aria-label', label));
            }
        });
    }

    // After the admin's autocomplete.js has built the widgets (it runs on DOMContentLoaded
    // too, and again for each form added to an inline).
    window.addEventListener('load', () => name(document));
    document.addEventListener('formset:added', (event) => setTimeout(() => name(event.target)));
}());
