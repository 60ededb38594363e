"""What a reader of a model's code says about its repeated structure, read off the eager nn.Module.

The corpus oracle (corpus_cases.py) writes it as DIR/<name>/modules.json for the repeated-structure
test of tests/corpus: ExportLens reads stacks off the exported graph; this reads them off the module
tree torch built, independently:

    {"version": MODULES_VERSION,
     "runs": [{"container": "model.stages",          a ModuleList or Sequential
               "class": "SwinTransformerStage",       the class its entries share
               "entries": ["model.stages.0", ...],    a run of two or more consecutive entries of it
               "alike": false,                        every entry built the same (signature below)
               "lengths": [{"blocks": 2}, ...],       per entry: its ModuleList/Sequential children's lengths
               "one_off": ["model.stages.2"]}]}       entries a reader calls odd (below)

An entry's signature is what its constructor arguments decide: every submodule's path, class and
extra_repr (kernel sizes, strides, features), and every parameter's and buffer's name and shape.

A reader calls an entry odd when it is a one-off against a majority: its signature is held by no
other entry of the run, while one signature is held by at least half of them (and by no fewer than
any other). Not odd: entries of a run with no majority (stages each built with another depth and
width), a variant two or more entries share (the last two blocks of a stage with attention), and a
run's first entry when it takes another width in than the majority (its first matrix or kernel
reads another number of input features: the block that downsamples into a stage).
"""

import collections

import torch

MODULES_VERSION = "1"


def _signature(module: torch.nn.Module):
    subs = tuple((name, type(m).__name__, m.extra_repr()) for name, m in module.named_modules())
    tensors = tuple((name, tuple(t.shape)) for name, t in
                    list(module.named_parameters()) + [(n, b) for n, b in module.named_buffers() if b is not None])
    return subs, tensors


def _input_features(module: torch.nn.Module):
    """The number of input features of its first matrix or kernel (a weight of rank 2 or more)."""
    for _, p in module.named_parameters():
        if p.dim() >= 2:
            return p.shape[1]
    return None


def _lengths(module: torch.nn.Module):
    return {name: len(child) for name, child in module.named_children()
            if isinstance(child, (torch.nn.ModuleList, torch.nn.Sequential))}


def _one_off(entries):
    signatures = [_signature(m) for _, m in entries]
    counts = collections.Counter(signatures)
    top, top_count = counts.most_common(1)[0]
    tied = sum(1 for c in counts.values() if c == top_count) > 1
    if tied or 2 * top_count < len(entries):
        return []
    majority_features = next(_input_features(m) for (_, m), s in zip(entries, signatures) if s == top)
    odd = []
    for i, ((path, m), s) in enumerate(zip(entries, signatures)):
        if s == top or counts[s] > 1:
            continue
        if i == 0 and _input_features(m) != majority_features:
            continue
        odd.append(path)
    return odd


def read_runs(model: torch.nn.Module) -> dict:
    runs = []
    for path, container in model.named_modules():
        if not isinstance(container, (torch.nn.ModuleList, torch.nn.Sequential)):
            continue
        children = [(f"{path}.{name}" if path else name, m) for name, m in container.named_children()]
        i = 0
        while i < len(children):
            j = i
            while j < len(children) and type(children[j][1]) is type(children[i][1]):
                j += 1
            if j - i >= 2:
                entries = children[i:j]
                runs.append({
                    "container": path,
                    "class": type(children[i][1]).__name__,
                    "entries": [p for p, _ in entries],
                    "alike": len({_signature(m) for _, m in entries}) == 1,
                    "lengths": [_lengths(m) for _, m in entries],
                    "one_off": _one_off(entries),
                })
            i = j
    return {"version": MODULES_VERSION, "runs": runs}
