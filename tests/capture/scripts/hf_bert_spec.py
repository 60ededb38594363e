"""A transformers model (a 2-layer BERT, tiny config, random weights) exported
with a sequence Dim whose max lies beyond the position table (the export fails
with torch's suggested fix), then with that fix (it succeeds)."""
import torch
from torch.export import Dim, export
from transformers import BertConfig, BertModel

from _corpus import report

torch.manual_seed(0)
config = BertConfig(vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=64, max_position_embeddings=64)
model = BertModel(config).eval()
input_ids = torch.randint(0, 128, (2, 16))
attention_mask = torch.ones(2, 16, dtype=torch.long)

batch, seq = Dim("batch", min=1, max=8), Dim("seq", min=2, max=128)
report(1, lambda: export(model, (), {"input_ids": input_ids, "attention_mask": attention_mask},
                         dynamic_shapes={"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq}}))

seq = Dim("seq", min=2, max=64)  # the position table's size
ep = report(2, lambda: export(model, (), {"input_ids": input_ids, "attention_mask": attention_mask},
                              dynamic_shapes={"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq}}))
print(ep.range_constraints if ep is not None else None)
