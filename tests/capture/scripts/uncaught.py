"""An export that fails and is not caught: the script exits non-zero with torch's traceback."""
import torch
import torch.export

print("before export", flush=True)


class Specialized(torch.nn.Module):
    def forward(self, x):
        return x.reshape(3, -1)


batch = torch.export.Dim("batch")
torch.export.export(Specialized(), (torch.randn(3, 4),), dynamic_shapes={"x": {0: batch}})
print("not reached")
