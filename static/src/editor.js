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
        if (update.docChanged) textarea.value = update.state.doc.toString();
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

function attachAll(root) {
  root.querySelectorAll('textarea[data-editor="cpp"]').forEach(attach);
  wirePathToggle(root);
  wireResets(root);
}

document.addEventListener("DOMContentLoaded", () => attachAll(document));
document.addEventListener("htmx:load", (event) => attachAll(event.target));
window.akgenEditor = { attachAll, setDoc };
