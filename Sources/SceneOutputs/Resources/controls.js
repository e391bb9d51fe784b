// The controls for a scene's inputs, shared by the interactive page (`--interactive`)
// and the live preview (`scenec preview`); the replay-only player has none.
var SceneControls = (function () {
  "use strict";

  // A control in `box` for each of the scene's inputs: a checkbox for a boolean, a slider over its range (a number field
  // without one) for a number, a button for a trigger; each calls `set(name, value)`.
  // Returns `show(values)`, which shows the values a frame carries (`in`), so that a value
  // the gesture sets shows too, but not on a control the reader is holding.
  function inputControls(box, inputs, set) {
    box.textContent = "";
    var controls = inputs.map(function (input) {
      var label = document.createElement("label");
      var control;
      if (input.kind === "trigger") {
        control = document.createElement("button");
        control.type = "button";
        control.textContent = input.name;
        control.addEventListener("click", function () { set(input.name, 1); });
        box.appendChild(control);
        return null;
      }
      control = document.createElement("input");
      control.id = "input-" + input.name;
      if (input.kind === "boolean") {
        control.type = "checkbox";
        control.checked = input.value !== 0;
        control.addEventListener("change", function () { set(input.name, control.checked ? 1 : 0); });
        label.appendChild(control);
        label.appendChild(document.createTextNode(" " + input.name));
      } else {
        var ranged = input.min !== undefined && input.max !== undefined;
        control.type = ranged ? "range" : "number";
        if (input.min !== undefined) control.min = String(input.min);
        if (input.max !== undefined) control.max = String(input.max);
        control.step = "any";
        control.value = String(input.value);
        var shown = document.createElement("span");
        shown.textContent = " " + input.value;
        control.addEventListener("input", function () {
          var value = parseFloat(control.value);
          if (!isFinite(value)) return;
          shown.textContent = " " + value;
          set(input.name, value);
        });
        label.appendChild(document.createTextNode(input.name + " "));
        label.appendChild(control);
        label.appendChild(shown);
        control.shown = shown;
      }
      box.appendChild(label);
      return control;
    });
    box.hidden = inputs.length === 0;
    return function show(values) {
      values.forEach(function (value, k) {
        var control = controls[k];
        if (!control || control === document.activeElement && control.type !== "checkbox") return;
        if (control.type === "checkbox") {
          control.checked = value !== 0;
        } else if (parseFloat(control.value) !== value) {
          control.value = String(value);
          if (control.shown) control.shown.textContent = " " + value;
        }
      });
    };
  }

  return { inputs: inputControls };
})();
