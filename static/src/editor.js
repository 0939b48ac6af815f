// Turns every <textarea data-editor="cpp"> into a CodeMirror 6 editor that keeps the textarea
// in sync, so plain form posts (and htmx) submit what the person typed. Also drives the submit
// page: the host editor shows only on the host+device path, "Reset to template" buttons, and
// Ctrl/Cmd+Enter to submit.
import { cpp } from "@codemirror/lang-cpp";
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { EditorState } from "@codemirror/state";

const theme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', lineHeight: "1.5" },
  ".cm-content": { minHeight: "360px" },
  ".cm-gutters": { backgroundColor: "#f8fafc", color: "#94a3b8", borderRight: "1px solid #e5e7eb" },
  "&.cm-focused": { outline: "none" },
});

function attach(textarea) {
  if (textarea.dataset.editorAttached) return;
  textarea.dataset.editorAttached = "1";
  const submit = () => {
    if (textarea.form) textarea.form.requestSubmit();
    return true;
  };
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      keymap.of([{ key: "Mod-Enter", run: submit }]),
      basicSetup,
      cpp(),
      EditorState.tabSize.of(4),
      theme,
      EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || "Source" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          textarea.value = update.state.doc.toString();
          textarea.dispatchEvent(new Event("akgen:changed"));
        }
      }),
    ],
  });
  textarea.style.display = "none";
  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.classList.add("code-editor");
  view.dom.dataset.editorFor = textarea.id;
  textarea.akgenEditor = view;
}

function setDoc(textarea, text) {
  const view = textarea.akgenEditor;
  if (view) {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  }
  textarea.value = text;
}

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch {
    return null;
  }
}

function wirePathToggle(root) {
  const blocks = root.querySelectorAll("[data-show-when-path]");
  if (!blocks.length) return;
  const form = blocks[0].closest("form");
  if (!form || form.dataset.pathToggle) return;
  form.dataset.pathToggle = "1";
  const update = () => {
    const checked = form.querySelector('input[name="path"]:checked');
    const value = checked ? checked.value : "";
    blocks.forEach((block) => {
      const shown = block.dataset.showWhenPath === value;
      block.classList.toggle("is-hidden", !shown);
      if (shown) block.querySelectorAll("textarea").forEach((t) => t.akgenEditor && t.akgenEditor.requestMeasure());
    });
  };
  form.querySelectorAll('input[name="path"]').forEach((radio) => radio.addEventListener("change", update));
  update();
}

function wireResets(root) {
  root.querySelectorAll("[data-reset-editor]").forEach((button) => {
    if (button.dataset.wired) return;
    button.dataset.wired = "1";
    button.addEventListener("click", () => {
      const textarea = document.getElementById(button.dataset.resetEditor);
      const text = readJson(button.dataset.source);
      if (!textarea || typeof text !== "string") return;
      if (textarea.value !== text && !window.confirm("Replace the editor's contents with the template?")) return;
      setDoc(textarea, text);
    });
  });
}

// Drafts survive reloads and navigation: each editor of a <form data-draft-scope="task"> is kept
// in localStorage per task, path and file while the person types, and restored when the page is
// opened fresh (data-draft-restore="1"; a re-shown form with errors, or a page started from a
// submission, shows what the server sent). "Reset to template" is the way back.
const DRAFT_PREFIX = "akgen:draft:";

function wireDrafts(root) {
  root.querySelectorAll("form[data-draft-scope]").forEach((form) => {
    if (form.dataset.draftsWired) return;
    form.dataset.draftsWired = "1";
    const scope = form.dataset.draftScope;
    const path = () => {
      const checked = form.querySelector('input[name="path"]:checked');
      return checked ? checked.value : "device_only";
    };
    const key = (textarea, p) => `${DRAFT_PREFIX}${scope}:${p}:${textarea.name}`;
    const areas = Array.from(form.querySelectorAll('textarea[data-editor="cpp"]'));
    const load = (p) =>
      areas.forEach((textarea) => {
        let saved = null;
        try {
          saved = window.localStorage.getItem(key(textarea, p));
        } catch {
          return;
        }
        if (saved !== null && saved !== textarea.value) setDoc(textarea, saved);
      });
    if (form.dataset.draftRestore === "1") load(path());
    areas.forEach((textarea) =>
      textarea.addEventListener("akgen:changed", () => {
        try {
          window.localStorage.setItem(key(textarea, path()), textarea.value);
        } catch {
          /* storage full or disabled: the editor still works, the draft is not kept */
        }
      }),
    );
    form.querySelectorAll('input[name="path"]').forEach((radio) => radio.addEventListener("change", () => load(path())));
  });
}

function attachAll(root) {
  root.querySelectorAll('textarea[data-editor="cpp"]').forEach(attach);
  wirePathToggle(root);
  wireResets(root);
  wireDrafts(root);
}

document.addEventListener("DOMContentLoaded", () => attachAll(document));
document.addEventListener("htmx:load", (event) => attachAll(event.target));
window.akgenEditor = { attachAll, setDoc };
