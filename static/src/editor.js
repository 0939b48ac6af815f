// Turns every <textarea data-editor="cpp"> into a CodeMirror 6 editor that keeps the textarea
// in sync, so plain form posts (and htmx) submit what the person typed.
import { cpp } from "@codemirror/lang-cpp";
import { EditorView, basicSetup } from "codemirror";

function attach(textarea) {
  if (textarea.dataset.editorAttached) return;
  textarea.dataset.editorAttached = "1";
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      cpp(),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) textarea.value = update.state.doc.toString();
      }),
    ],
  });
  textarea.style.display = "none";
  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.classList.add("code-editor");
  textarea.akgenEditor = view;
}

function attachAll(root) {
  root.querySelectorAll('textarea[data-editor="cpp"]').forEach(attach);
}

document.addEventListener("DOMContentLoaded", () => attachAll(document));
document.addEventListener("htmx:load", (event) => attachAll(event.target));
window.akgenEditor = { attachAll };
