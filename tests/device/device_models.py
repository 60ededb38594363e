"""Programs for the device check, exported with this machine's torch.

For each model: program.pt2 (torch.export.save of a CPU export), inputs.pt,
cpu_outputs.pt (ep.module() on the CPU) and, on a GPU, device_outputs.pt
(the program moved to the device with torch.export's move_to_device_pass,
ep.module() there), plus torch's eager times on the device (the nn.Module
and ep.module(), median of repeated synchronized calls) in torch_times.json.
Outputs are from the first call on a fresh program, as `exportlens run`
reports them (the buffer-mutating model changes its buffers on each call).
The CNN also gets compiled.pt2: the program beside its AOTInductor compile
for the device (package_pt2, with provenance and kernel profiling), and
compiled_outputs.pt, torch's own aoti_load_package run of it.

usage: python device_models.py --out DIR [--device cuda|cpu] [--repeat N]
"""
import argparse
import copy
import json
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    """conv-bn-relu x3, pooling and a classifier: a CNN at batch 32 (eval)."""

    def __init__(self):
        super().__init__()
        chans = [3, 32, 64, 128]
        self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(chans, chans[1:]))
        self.bns = nn.ModuleList(nn.BatchNorm2d(c) for c in chans[1:])
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        for conv, bn in zip(self.convs, self.bns):
            x = F.max_pool2d(F.relu(bn(conv(x))), 2)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class TransformerBlock(nn.Module):
    """Pre-norm attention + MLP block: launch-bound at batch 1."""

    def __init__(self, d=256, heads=4):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class CondModel(nn.Module):
    """torch.cond on a data-dependent predicate: cannot be one CUDA graph."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: torch.sin(self.lin(x)), lambda x: torch.cos(x) * 2, (x,))


class BufferMutating(nn.Module):
    """Updates its buffers on every call (a step counter, BatchNorm's running stats in training)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.zeros(()))
        self.bn = nn.BatchNorm1d(8)
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        self.steps.add_(1)
        return self.lin(self.bn(x)) + self.steps


def models():
    torch.manual_seed(0)
    cnn = SmallCNN().eval()
    block = TransformerBlock().eval()
    cond = CondModel().eval()
    mutating = BufferMutating().train()
    return {
        "cnn_b32": (cnn, (torch.randn(32, 3, 32, 32),), True),
        "transformer_b1": (block, (torch.randn(1, 64, 256),), True),
        "cond": (cond, (torch.randn(4, 16),), False),
        "buffer_mutation": (mutating, (torch.randn(16, 8),), False),
    }


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def timed(fn, inputs, device, repeat):
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    for _ in range(3):
        fn(*inputs)
    sync()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*inputs)
        sync()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def compile_package(model, inputs, device, d):
    """The program and its AOTInductor compile for `device` in one archive, and torch's run of it."""
    import torch._inductor.config as inductor_config
    from torch.export.pt2_archive._package import package_pt2
    t0 = time.time()
    dev_inputs = tuple(x.to(device) for x in inputs)
    ep = torch.export.export(model.to(device), dev_inputs)
    with inductor_config.patch({"trace.provenance_tracking_level": 1, "cpp.enable_kernel_profile": True}):
        files = torch._inductor.aot_compile(ep.module(), dev_inputs, options={"aot_inductor.package": True})
    path = os.path.join(d, "compiled.pt2")
    package_pt2(path, exported_programs={"model": ep}, aoti_files={"model": files})
    with torch.no_grad():
        out = as_tuple(torch._inductor.aoti_load_package(path)(*dev_inputs))
    torch.save(tuple(t.cpu() for t in out), os.path.join(d, "compiled_outputs.pt"))
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    on_gpu = args.device.startswith("cuda")
    if on_gpu and not torch.cuda.is_available():
        raise SystemExit(f"device_models.py: torch {torch.__version__} sees no CUDA device")
    facts = {"torch": torch.__version__, "cuda": torch.version.cuda,
             "device_name": torch.cuda.get_device_name(0) if on_gpu else "cpu", "models": {}}
    for name, (model, inputs, bench) in models().items():
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        fresh = copy.deepcopy(model)
        ep = torch.export.export(copy.deepcopy(model), inputs)
        torch.export.save(ep, os.path.join(d, "program.pt2"))
        torch.save(inputs, os.path.join(d, "inputs.pt"))
        loaded = torch.export.load(os.path.join(d, "program.pt2"))
        with torch.no_grad():
            cpu_out = as_tuple(copy.deepcopy(loaded).module()(*inputs))
        torch.save(cpu_out, os.path.join(d, "cpu_outputs.pt"))
        info = {"nodes": sum(1 for n in loaded.graph.nodes if n.op == "call_function"),
                "mutates_buffers": bool(loaded.graph_signature.buffers_to_mutate), "bench": bench}
        if on_gpu:
            from torch.export.passes import move_to_device_pass
            on_device = move_to_device_pass(copy.deepcopy(loaded), args.device)
            dev_inputs = tuple(x.to(args.device) for x in inputs)
            with torch.no_grad():
                dev_out = as_tuple(on_device.module()(*dev_inputs))
            torch.save(tuple(t.cpu() for t in dev_out), os.path.join(d, "device_outputs.pt"))
            if bench:
                with torch.no_grad():
                    info["torch_eager_ms"] = timed(fresh.to(args.device), dev_inputs, args.device, args.repeat)
                    info["ep_module_ms"] = timed(on_device.module(), dev_inputs, args.device, args.repeat)
        elif bench:
            with torch.no_grad():
                info["torch_eager_ms"] = timed(fresh, inputs, "cpu", args.repeat)
                info["ep_module_ms"] = timed(loaded.module(), inputs, "cpu", args.repeat)
        if name == "cnn_b32":
            info["compiled_seconds"] = compile_package(copy.deepcopy(model), inputs, args.device, d)
        facts["models"][name] = info
        print(f"device_models: {name}: {info['nodes']} nodes exported", flush=True)
    with open(os.path.join(args.out, "torch_facts.json"), "w") as f:
        json.dump(facts, f, indent=1)


if __name__ == "__main__":
    main()
