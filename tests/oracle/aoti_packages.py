#!/usr/bin/env python3
"""Write the archives ExportLens' compiled-model tests read, with real torch 2.13.

Usage:  python aoti_packages.py --out DIR

DIR gets:
  multi.pt2     package_pt2 with two exported programs, "forward" and "other"
  plain.pt2     aoti_compile_and_package of a small net (static shapes), no
                provenance tracking: compiled code only
  program.pt2   torch.export.save of the program plain.pt2 was compiled from
  both.pt2      package_pt2 with the exported program "model" and its compiled
                model (dynamic batch), compiled with provenance tracking and
                cpp.enable_kernel_profile
  inputs.pt     torch.save((x,)) the inputs every test runs
  outputs_plain.pt, outputs_both.pt
                torch.save of aoti_load_package(...)(x): torch's own run of
                each compiled model
  manifest.json {package: {programs, compiled_models, kernels: {handle: [nodes]}}}
                the kernels (by debug handle, "cpp_fused_x_1:3") and their program
                nodes as torch's kernel_information.json names them (both.pt2 only)

Each AOTInductor compile takes 10-40 s on a CPU: the fixtures are few and small.
"""
import argparse
import json
import os
import zipfile

import torch
import torch._inductor.config as inductor_config
from torch.export.pt2_archive._package import package_pt2


class SmallNet(torch.nn.Module):
    """conv, batch norm, relu, pool and a linear head: kernels of several kinds."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.head = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
        return torch.sigmoid(self.head(y)) * 2 + 1


class Scale(torch.nn.Module):
    def forward(self, a, b):
        return a * b + 2


def kernel_nodes(package):
    """kernel name -> its program nodes, as kernel_information.json says."""
    with zipfile.ZipFile(package) as z:
        for name in z.namelist():
            if name.endswith("kernel_information.json"):
                info = json.loads(z.read(name))
                return {k: v.get("pre_grad_nodes", []) for k, v in info.items()}
    return {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = SmallNet().eval()
    x = torch.randn(2, 3, 8, 8)
    torch.save((x,), os.path.join(out, "inputs.pt"))
    manifest = {}

    static = torch.export.export(model, (x,))
    other = torch.export.export(Scale(), (torch.randn(2, 2), torch.randn(2, 2)))
    package_pt2(os.path.join(out, "multi.pt2"), exported_programs={"forward": static, "other": other})
    manifest["multi.pt2"] = {"programs": ["forward", "other"], "compiled_models": []}

    torch.export.save(static, os.path.join(out, "program.pt2"))
    plain = os.path.join(out, "plain.pt2")
    torch._inductor.aoti_compile_and_package(static, package_path=plain)
    torch.save(tuple([torch._inductor.aoti_load_package(plain)(x)]), os.path.join(out, "outputs_plain.pt"))
    manifest["plain.pt2"] = {"programs": [], "compiled_models": ["model"], "kernels": {}}

    dynamic = torch.export.export(model, (x,), dynamic_shapes={"x": {0: torch.export.Dim("batch", max=64)}})
    # As a user profiling a deployment compiles: provenance, and inductor's C++ kernels
    # recorded by the profiler (cpp.enable_kernel_profile), so every kernel can be timed.
    with inductor_config.patch({"trace.provenance_tracking_level": 1, "cpp.enable_kernel_profile": True}):
        files = torch._inductor.aot_compile(dynamic.module(), (x,), options={"aot_inductor.package": True})
    both = os.path.join(out, "both.pt2")
    package_pt2(both, exported_programs={"model": dynamic}, aoti_files={"model": files})
    torch.save(tuple([torch._inductor.aoti_load_package(both)(x)]), os.path.join(out, "outputs_both.pt"))
    manifest["both.pt2"] = {"programs": ["model"], "compiled_models": ["model"], "kernels": kernel_nodes(both),
                            "program_nodes": [n.name for n in dynamic.graph.nodes]}

    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
