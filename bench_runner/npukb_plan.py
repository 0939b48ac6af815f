"""Where each value of an NPUKernelBench case goes: the op's inputs and attributes, and Model.

A case gives ``get_inputs(row)`` (forward) and ``get_init_inputs(row)`` (init) values; the
benchmark hands them to ``Model(*init)(*forward)`` for the golden and to ``ModelNew``, whose
binding (pybind.cpp) turns them into the op's operands. A :class:`Plan` records that routing for
one case: which value fills each OpDef input, what each attribute is, each output's shape and
which of Model's results it is judged against (the binding returns some outputs, in its own
order; the rest are the op's scratch outputs, written but not compared).

Two ways to find it. :func:`binding_plan` reads what the benchmark's own binding did with the
call (npukb_pybind: the real pybind.cpp, compiled against a shape-only torch); that is the truth.
:func:`positional_plan` is the fallback for a task whose binding the shim cannot build: the
values in order onto the OpDef's inputs, then its attributes, and Model's results onto its
outputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench_runner.npukb_pybind import Binding, Call, Operand
from bench_runner.op_project import OpDefTensor


class PlanSkip(Exception):
    """The case cannot be routed onto the op; the message is the reason shown to the user."""


@dataclass(frozen=True)
class Plan:
    #: Per OpDef input, in order: the index into ``forward + init`` of the value it gets, or
    #: :data:`FROM_CALL` for a tensor ``ModelNew`` computes (``from_call`` says which argument).
    inputs: tuple[int, ...]
    #: The attribute values the op gets in this case, by name.
    attrs: dict[str, Any]
    #: Per akgen output: the shape the binding allocated (None: Model's result gives it).
    out_shapes: dict[str, tuple[int, ...] | None]
    #: Per akgen output: the index of the Model result it is judged against; None: not judged.
    results: dict[str, int | None]
    #: Per Model argument (``forward + init``): ("input", name), ("attr", name) or ("value",).
    sources: tuple[tuple[str, ...], ...]
    #: The case's own value of each ("value",) source, by position (JSON: numbers, strings, None,
    #: or {"tensor": dtype, "shape": [...], "data": [...]} for a tiny tensor).
    values: dict[int, Any]
    #: Per akgen output the binding made: the dtype it allocated (for outputs the OpDef types in code).
    out_dtypes: dict[str, str]
    #: How many of Model's arguments go to forward() (get_inputs); the rest are Model(*init).
    n_forward: int = 0
    #: Per OpDef input (by index) that ModelNew computes from the case's values before its
    #: kernel_gen_ops call (GeluGrad's ``y = gelu(x)``): the index of that call's argument. Such an
    #: input is drawn by running ModelNew up to the call, as the benchmark's runner does.
    from_call: dict[int, int] = field(default_factory=dict)

    def signature(self) -> tuple[Any, ...]:
        """What must agree between cases of one task (their values and shapes may differ)."""
        return (self.inputs, tuple(sorted(self.results.items(), key=lambda kv: kv[0])), self.sources,
                self.n_forward, tuple(sorted(self.from_call.items())))


#: ``Plan.inputs`` entry of an input ModelNew computes (``Plan.from_call`` has its argument).
FROM_CALL = -1


def attribute_value(name: str, kind: str, v: Any, torch: Any) -> Any:
    """An OpDef attribute's value in the type its OpDef declares (``Float``, ``Bool``, ...)."""
    v = v.item() if isinstance(v, torch.Tensor) and v.numel() == 1 else v
    if isinstance(v, (list, tuple, torch.Tensor)):
        raise PlanSkip(f"attribute {name}: a list value")
    if v is None:
        raise PlanSkip(f"attribute {name}: no value")
    if kind == "Float":
        return float(v)
    if kind == "Bool":
        return bool(v)
    if kind == "String":
        return str(v)
    return int(v)


def positional_plan(ins: Sequence[OpDefTensor], attrs: Sequence[tuple[str, str]], outs: Sequence[OpDefTensor],
                    forward: list[Any], init: list[Any], n_results: int, torch: Any) -> Plan:
    """The values in order onto the OpDef's inputs then attributes; results onto its outputs."""
    values = forward + init
    if len(values) != len(ins) + len(attrs):
        raise PlanSkip(f"{len(forward)} values from get_inputs and {len(init)} from get_init_inputs for "
                       f"{len(ins)} OpDef inputs + {len(attrs)} attributes")
    if n_results != len(outs):
        raise PlanSkip(f"Model returns {n_results} tensors for {len(outs)} OpDef outputs")
    attr_map = {a: attribute_value(a, kind, v, torch) for (a, kind), v in zip(attrs, values[len(ins):], strict=True)}
    return Plan(inputs=tuple(range(len(ins))), attrs=attr_map, out_shapes={t.name: None for t in outs},
                results={t.name: i for i, t in enumerate(outs)},
                sources=tuple([("input", t.name) for t in ins] + [("attr", a) for a, _ in attrs]),
                values={}, out_dtypes={}, n_forward=len(forward))


def operand_identity(op: Operand) -> str:
    """The shim's name for the tensor (or first tensor of a list) an operand passes: "a<k>",
    "a<k>.<j>" or "n<k>" (npukb_pybind.Operand.source)."""
    return op.source or (op.items[0].source.split(".")[0] if op.items else "")


def written_input(binding: Binding, n_inputs: int) -> int | None:
    """Which OpDef input an op with no OpDef outputs writes (Sscal's x, Gemm's c): the first of
    the op's input operands the binding returns, or None if it returns none of them."""
    idents = [operand_identity(op) for op in binding.operands[:n_inputs]]
    for r in binding.returns:
        for i, ident in enumerate(idents):
            if ident and (r == ident or r.split(".")[0] == ident):
                return i
    return None


def binding_plan(ins: Sequence[OpDefTensor], attrs: Sequence[tuple[str, str]], op_outs: Sequence[OpDefTensor],
                 outs: Sequence[OpDefTensor], aliases: dict[str, tuple[str, bool]], forward: list[Any],
                 init: list[Any], call: Call, binding: Binding, n_results: int, torch: Any) -> Plan:
    """The routing the benchmark's binding performed on this case's call.

    ``op_outs`` are the OpDef's outputs as declared (the operands after the attributes);
    ``outs`` the task's outputs (npukb_import.in_place_outputs: a "ref" output renamed
    ``<input>_ref``, or the one input an output-less op writes, ``<input>_out``)."""
    ops = binding.operands
    in_names = {t.name for t in ins}
    if len(ops) == len(ins) + len(attrs) + sum(1 for t in op_outs if t.name not in in_names):
        # "ref" outputs (named like an input) are that input's operand; an aclnn Inplace API
        # passes them once.
        op_outs = [t for t in op_outs if t.name not in in_names]
    if len(ops) != len(ins) + len(attrs) + len(op_outs):
        raise PlanSkip(f"pybind.cpp passes {len(ops)} operands to {binding.op}; the OpDef has {len(ins)} "
                       f"inputs, {len(attrs)} attributes and {len(op_outs)} outputs")
    values = forward + init
    position = [_position(a, values, torch) for a in call.args]
    inputs: list[int] = []
    from_call: dict[int, int] = {}
    for t, op in zip(ins, ops[:len(ins)], strict=True):
        if op.kind == "none":
            raise PlanSkip(f"input {t.name}: pybind.cpp passes no tensor (an optional input left out; "
                           "akgen tasks give every input)")
        if op.kind in ("int", "float", "bool"):  # a number the binding passed on as it came
            same = [k for k, a in enumerate(call.args) if _same_number(a, op.value, torch)]
            op = Operand("scalar", f"a{same[0]}", value=op.value) if len(same) == 1 else op
        if op.kind not in ("tensor", "list", "scalar"):
            raise PlanSkip(f"input {t.name}: pybind.cpp passes a {op.kind} where the OpDef has a tensor")
        k = op.argument
        if k is None:
            raise PlanSkip(f"input {t.name}: a tensor pybind.cpp makes (not one get_inputs gives)")
        if position[k] is None:
            if not isinstance(call.args[k], torch.Tensor):
                raise PlanSkip(f"input {t.name}: a value ModelNew makes that is not a tensor")
            from_call[len(inputs)] = k  # ModelNew computes it from the case's values
            inputs.append(FROM_CALL)
            continue
        inputs.append(position[k])  # type: ignore[arg-type]
    attr_map: dict[str, Any] = {}
    for (name, kind), op in zip(attrs, ops[len(ins):len(ins) + len(attrs)], strict=True):
        if op.kind not in ("int", "float", "bool", "str"):
            raise PlanSkip(f"attribute {name}: pybind.cpp passes a {op.kind}")
        attr_map[name] = attribute_value(name, kind, op.value, torch)
    in_source = {t.name: ops[i] for i, t in enumerate(ins)}
    made = {f"{t.name}_ref": in_source[t.name] for t in ins}  # a ref output the operands leave out
    for t, op in zip(op_outs, ops[len(ins) + len(attrs):], strict=True):
        if op.kind != ("list" if t.dynamic else "tensor"):
            raise PlanSkip(f"output {t.name}: pybind.cpp passes a {op.kind} for a "
                           f"{'tensor list' if t.dynamic else 'tensor'} output")
        made[f"{t.name}_ref" if t.name in in_source else t.name] = op
    out_shapes: dict[str, tuple[int, ...] | None] = {}
    results: dict[str, int | None] = {}
    out_dtypes: dict[str, str] = {}
    judged = list(binding.returns[:n_results])
    for t in outs:
        op = made.get(t.name) or in_source.get(aliases.get(t.name, ("", False))[0])
        if op is None:
            raise PlanSkip(f"output {t.name}: not among the operands pybind.cpp passes")
        ident = operand_identity(op)
        out_shapes[t.name] = None if t.dynamic else (op.shape or (1,))
        out_dtypes[t.name] = op.dtype or (op.items[0].dtype if op.items else "")
        returned = [j for j, r in enumerate(judged) if r == ident or r.split(".")[0] == ident]
        results[t.name] = returned[0] if returned else None
    if all(r is None for r in results.values()):
        raise PlanSkip("pybind.cpp returns none of the op's outputs")
    used = set(inputs) - {FROM_CALL}
    sources: list[tuple[str, ...]] = []
    case_values: dict[int, Any] = {}
    by_position = {p: t.name for p, t in zip(inputs, ins, strict=True) if p != FROM_CALL}
    for i, v in enumerate(values):
        if i in used:
            sources.append(("input", by_position[i]))
            continue
        sources.append(("value",))
        case_values[i] = _json_value(i, v, torch)
    return Plan(tuple(inputs), attr_map, out_shapes, results, tuple(sources), case_values, out_dtypes,
                len(forward), from_call)


def _same_number(arg: Any, value: Any, torch: Any) -> bool:
    if isinstance(arg, torch.Tensor):
        return arg.numel() == 1 and float(arg.reshape(-1)[0]) == float(value)
    return isinstance(arg, (bool, int, float)) and float(arg) == float(value)


def _position(arg: Any, values: list[Any], torch: Any) -> int | None:
    """Which of the case's values a call argument is: the same object, else an equal tensor."""
    for i, v in enumerate(values):
        if v is arg:
            return i
    if isinstance(arg, torch.Tensor):
        for i, v in enumerate(values):
            if (isinstance(v, torch.Tensor) and v.shape == arg.shape and v.dtype == arg.dtype
                    and torch.equal(v, arg)):
                return i
    if isinstance(arg, (list, tuple)) and arg:
        for i, v in enumerate(values):
            if isinstance(v, (list, tuple)) and len(v) == len(arg) and all(a is b for a, b in zip(v, arg, strict=True)):
                return i
    return None


def _json_value(i: int, v: Any, torch: Any) -> Any:
    """A Model argument the op never reads, as the case stores it."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(e, (bool, int, float)) for e in v):
        return list(v)
    if isinstance(v, torch.Tensor) and v.numel() <= 64 and not v.is_complex():
        return {"tensor": str(v.dtype).removeprefix("torch."), "shape": list(v.shape),
                "data": v.detach().reshape(-1).tolist()}
    raise PlanSkip(f"Model's argument {i}: a {type(v).__name__} that none of the op's inputs carries")


def value_from_json(v: Any, torch: Any) -> Any:
    """The inverse of the stored form: a tiny tensor comes back as a tensor."""
    if isinstance(v, dict) and "tensor" in v:
        return torch.tensor(v["data"], dtype=getattr(torch, v["tensor"])).reshape(v["shape"])
    return v
