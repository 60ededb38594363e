"""The small pre-norm transformer the browsing and repeated-structure oracles both export.

Imported by browse_models.py and structure_models.py (run as scripts from this folder): one
definition of Attention, Mlp, Block and TransformerStack, so the two fixture sets are built
from the same layers.
"""

import torch


class Attention(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (c // self.heads) ** 0.5)
        y = (att.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, c)
        return self.proj(y)


class Mlp(torch.nn.Module):
    def __init__(self, d, hidden=None):
        super().__init__()
        hidden = hidden or 4 * d
        self.fc1 = torch.nn.Linear(d, hidden)
        self.act = torch.nn.GELU()
        self.fc2 = torch.nn.Linear(hidden, d)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(torch.nn.Module):
    """A pre-norm transformer layer."""

    def __init__(self, d, heads):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.ln2 = torch.nn.LayerNorm(d)
        self.mlp = Mlp(d)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TransformerStack(torch.nn.Module):
    def __init__(self, depth=24, d=16, heads=2):
        super().__init__()
        self.embed = torch.nn.Linear(8, d)
        self.blocks = torch.nn.ModuleList(Block(d, heads) for _ in range(depth))
        self.norm = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, 10)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))
