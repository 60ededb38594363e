"""The real-architecture corpus: models nobody here wrote, built from small configs.

Language models and vision models come from HuggingFace `transformers` (pure
Python; packaging/setup.sh installs the pinned version), recurrent layers from
torch.nn, and a second vision zoo from `timm` (its mobile, hybrid
conv-attention, re-parameterised and windowed models). timm needs torchvision,
whose registry wheel is built for the registry's CUDA torch 2.13: setup.sh
makes a second venv of that torch with torchvision and timm (the vision venv,
packaging/flavour.sh), and corpus_cases.py runs there for `--libraries timm`. Weights are random (torch.manual_seed before each build); widths are
small where width does not change the class of program, depth is kept where it
does (node-name counters, repeated blocks): `llama_deep` and `resnet_deep`.

Each architecture is exported with Dim.AUTO on its batch / sequence / spatial
dims (the program ExportLens re-solves) and with the specs of `specs(arch)`:
every dynamic dim a fresh named Dim (torch's violations and suggested fixes;
the fixes pasted back become a "<spec>_refined" case), and the batch alone.

Last come programs of torch's own machinery, written here (corpus_programs.py):
higher-order ops (while_loop, scan, cond inside map, invoke_subgraph,
autocast and no_grad regions, a custom op mutating a buffer)
and torchao's pt2e quantization, held to the same aspects.
"""

import dataclasses
import inspect
from typing import Callable, Optional

import torch

import corpus_programs as cp

VOCAB = 128


@dataclasses.dataclass
class Arch:
    name: str
    family: str  # "lm", "encoder", "seq2seq", "vision", "speech", "recurrent", "hop", "pt2e"
    description: str
    build: Callable[[], torch.nn.Module]
    inputs: Callable[[], tuple]
    arg_names: tuple
    # per input: the dims that get Dim.AUTO (the others static)
    dynamic_dims: tuple
    # extra spec cases: (name, python text, refine)
    extra_specs: tuple = ()
    # where the model's code comes from: "transformers", "torch.nn", "timm", or "torch" and "torchao"
    # for the programs of torch's own machinery (corpus_programs.py)
    library: str = "transformers"

    def source_key(self) -> str:
        """What the cached export depends on: this entry's and its builders' source text."""
        parts = [repr((self.name, self.family, self.arg_names, self.dynamic_dims, self.extra_specs, self.library))]
        for fn in (self.build, self.inputs):
            try:
                parts.append(inspect.getsource(fn))
            except (OSError, TypeError):
                parts.append(repr(fn))
        if self.library in ("torch", "torchao"):  # its classes are written here
            parts.append(inspect.getsource(cp))
        return "\n".join(parts)


# ---------------------------------------------------------------------------
# Wrappers: one tensor in, the logits out (the models return ModelOutput objects)
# ---------------------------------------------------------------------------

class LogitsOf(torch.nn.Module):
    """forward(input_ids) -> model(input_ids).logits (or another output field)."""

    def __init__(self, model, field="logits"):
        super().__init__()
        self.model = model
        self.field = field

    def forward(self, input_ids):
        return getattr(self.model(input_ids), self.field)


class VisionLogitsOf(LogitsOf):
    """forward(pixel_values): the argument named as the program's input."""

    def forward(self, pixel_values):
        return getattr(self.model(pixel_values), self.field)


class AudioLogitsOf(LogitsOf):
    """forward(audio): log-mel features (Whisper) or raw samples (Wav2Vec2)."""

    def forward(self, audio):
        return getattr(self.model(audio), self.field)


class Seq2SeqLogitsOf(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, decoder_input_ids):
        return self.model(input_ids=input_ids, decoder_input_ids=decoder_input_ids).logits


class Recurrent(torch.nn.Module):
    """A torch.nn recurrent layer over (batch, time, features), then a linear head on every step."""

    def __init__(self, cell, features=8, hidden=16, layers=2, bidirectional=False):
        super().__init__()
        self.rnn = cell(features, hidden, num_layers=layers, batch_first=True, bidirectional=bidirectional)
        self.head = torch.nn.Linear(hidden * (2 if bidirectional else 1), 4)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out)


class NnTransformer(torch.nn.Module):
    """torch.nn.TransformerEncoder with its own layers, then a linear head."""

    def __init__(self, d=16, heads=2, layers=2):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(d, heads, dim_feedforward=32, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = torch.nn.Linear(d, 4)

    def forward(self, x):
        return self.head(self.encoder(x))


def _transformers():
    import transformers  # noqa: F401  (packaging/setup.sh installs the pinned version)
    return transformers


def _timm():
    import timm  # noqa: F401  (the vision venv: packaging/setup.sh)
    return timm


def library_version(library: str) -> str:
    """The version of the library an architecture's code comes from (torch.nn, torch: torch's)."""
    if library in ("torch.nn", "torch"):
        return torch.__version__
    if library == "torchao":
        import torchao  # noqa: F401  (packaging/setup.sh installs it beside torch)
        return torchao.__version__
    return (_timm() if library == "timm" else _transformers()).__version__


class TimmLogits(torch.nn.Module):
    """forward(pixel_values) -> the timm model's logits (a tensor): named as the other vision models' input."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model(pixel_values)


# ---------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------

def causal_lm(config_name, model_name, **kw):
    def build():
        T = _transformers()
        base = dict(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                    num_attention_heads=4, max_position_embeddings=128)
        base.update(kw)
        cfg = getattr(T, config_name)(**base)
        cfg.use_cache = False
        return LogitsOf(getattr(T, model_name)(cfg).eval())
    return build


def hf_model(config_name, model_name, wrapper=LogitsOf, field="logits", **kw):
    def build():
        T = _transformers()
        cfg = getattr(T, config_name)(**kw)
        if hasattr(cfg, "use_cache"):
            cfg.use_cache = False
        return wrapper(getattr(T, model_name)(cfg).eval(), field) if wrapper is not Seq2SeqLogitsOf \
            else wrapper(getattr(T, model_name)(cfg).eval())
    return build


def tokens(batch=2, seq=8):
    return lambda: (torch.randint(0, VOCAB, (batch, seq)),)


def image(batch=2, size=32, channels=3):
    return lambda: (torch.randn(batch, channels, size, size),)


def lm_arch(name, description, build, family="lm", seq=8, extra_specs=()):
    return Arch(name, family, description, build, tokens(2, seq), ("input_ids",), ((0, 1),), extra_specs)


def vision_arch(name, description, build, size=32, extra_specs=()):
    return Arch(name, "vision", description, build, image(2, size), ("pixel_values",), ((0, 2, 3),), extra_specs)


def timm_model(model_name, **kw):
    """timm.create_model with random weights and 10 classes; kw narrows the model where its config allows."""
    def build():
        return TimmLogits(_timm().create_model(model_name, pretrained=False, num_classes=10, **kw).eval())
    return build


def timm_arch(name, description, model_name, size=64, dynamic=(0, 2, 3), **kw):
    return Arch(name, "vision", description, timm_model(model_name, **kw), image(2, size), ("pixel_values",),
                (dynamic,), library="timm")


VIT = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64, image_size=32,
           patch_size=8, num_labels=10)
STAGES = dict(hidden_sizes=[8, 16, 32, 64], depths=[1, 1, 1, 1], num_labels=10)

ARCHITECTURES = [
    # --- decoder language models: RoPE, RMSNorm, GQA, causal masks ------------------
    lm_arch("llama", "Llama: rotary embeddings, RMSNorm, grouped-query attention (4 heads, 2 KV heads), SiLU MLP, "
            "causal mask", causal_lm("LlamaConfig", "LlamaForCausalLM", num_key_value_heads=2)),
    lm_arch("llama_deep", "Llama at depth 6: the node-name counters and repeated blocks of a real stack",
            causal_lm("LlamaConfig", "LlamaForCausalLM", num_key_value_heads=1, num_hidden_layers=6,
                      hidden_size=16, intermediate_size=32, num_attention_heads=2)),
    lm_arch("mistral", "Mistral: sliding-window causal mask, GQA", causal_lm(
        "MistralConfig", "MistralForCausalLM", num_key_value_heads=2, sliding_window=4)),
    lm_arch("qwen2", "Qwen2: biased QKV projections, GQA, RoPE", causal_lm(
        "Qwen2Config", "Qwen2ForCausalLM", num_key_value_heads=2)),
    lm_arch("gemma", "Gemma: GeGLU MLP, scaled embeddings, (1 + w) RMSNorm", causal_lm(
        "GemmaConfig", "GemmaForCausalLM", num_key_value_heads=2, head_dim=8)),
    lm_arch("phi", "Phi: partial rotary embeddings, parallel attention and MLP, LayerNorm", causal_lm(
        "PhiConfig", "PhiForCausalLM")),
    lm_arch("gpt_neox", "GPT-NeoX: fused QKV, 50% rotary, parallel residual", causal_lm(
        "GPTNeoXConfig", "GPTNeoXForCausalLM", rotary_pct=0.5)),
    lm_arch("falcon", "Falcon: multi-query style KV groups, new decoder architecture (parallel attention and MLP)",
            causal_lm("FalconConfig", "FalconForCausalLM", num_kv_heads=2, new_decoder_architecture=True)),
    lm_arch("mixtral", "Mixtral: sparse mixture-of-experts routing (4 experts, top-2), GQA, sliding window", causal_lm(
        "MixtralConfig", "MixtralForCausalLM", num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2)),
    lm_arch("qwen2_moe", "Qwen2-MoE: top-2 of 4 experts plus a gated shared expert", causal_lm(
        "Qwen2MoeConfig", "Qwen2MoeForCausalLM", num_key_value_heads=2, num_experts=4, num_experts_per_tok=2,
        moe_intermediate_size=16, shared_expert_intermediate_size=32)),
    lm_arch("gpt2", "GPT-2: learned positions, Conv1D projections, causal mask", hf_model(
        "GPT2Config", "GPT2LMHeadModel", vocab_size=VOCAB, n_embd=32, n_layer=2, n_head=4, n_positions=64,
        bos_token_id=0, eos_token_id=0)),
    lm_arch("opt", "OPT: learned offset positions, ReLU MLP", hf_model(
        "OPTConfig", "OPTForCausalLM", vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, ffn_dim=64,
        num_attention_heads=4, max_position_embeddings=64, word_embed_proj_dim=32, bos_token_id=0,
        eos_token_id=0, pad_token_id=1)),
    # --- encoders, encoder-decoder --------------------------------------------------
    lm_arch("bert", "BERT masked LM: token types, learned positions (max 64), GELU, LayerNorm", hf_model(
        "BertConfig", "BertForMaskedLM", vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=64, max_position_embeddings=64), family="encoder"),
    lm_arch("distilbert", "DistilBERT masked LM", hf_model(
        "DistilBertConfig", "DistilBertForMaskedLM", vocab_size=VOCAB, dim=32, n_layers=2, n_heads=4,
        hidden_dim=64, max_position_embeddings=64), family="encoder"),
    lm_arch("gemma2", "Gemma-2: attention and final logit softcapping (tanh), alternating sliding-window layers, "
            "pre- and post-norms", causal_lm(
                "Gemma2Config", "Gemma2ForCausalLM", num_key_value_heads=2, head_dim=8, sliding_window=4,
                attn_logit_softcapping=50.0, final_logit_softcapping=30.0)),
    lm_arch("albert", "ALBERT: factorized embeddings, one layer's weights shared by every layer", hf_model(
        "AlbertConfig", "AlbertForMaskedLM", vocab_size=VOCAB, embedding_size=16, hidden_size=32,
        num_hidden_layers=3, num_attention_heads=4, intermediate_size=64, max_position_embeddings=64),
        family="encoder"),
    lm_arch("deberta_v2", "DeBERTa-v2: disentangled attention over relative positions (log buckets), shared "
            "relative embeddings", hf_model(
                "DebertaV2Config", "DebertaV2ForMaskedLM", vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                num_attention_heads=4, intermediate_size=64, max_position_embeddings=64, relative_attention=True,
                position_buckets=8, max_relative_positions=16, pos_att_type=["p2c", "c2p"]),
        family="encoder"),
    # T5's relative position buckets take torch.export minutes per spec on symbolic lengths: batch only.
    Arch("t5", "seq2seq", "T5: encoder-decoder, relative position buckets, RMSNorm, cross attention",
         hf_model("T5Config", "T5ForConditionalGeneration", wrapper=Seq2SeqLogitsOf, vocab_size=VOCAB, d_model=32,
                  d_kv=8, d_ff=64, num_layers=2, num_heads=4, decoder_start_token_id=0),
         lambda: (torch.randint(0, VOCAB, (2, 8)), torch.randint(0, VOCAB, (2, 6))),
         ("input_ids", "decoder_input_ids"), ((0,), (0,))),
    # --- vision transformers --------------------------------------------------------
    vision_arch("vit", "ViT: patch embedding conv, class token, learned positions", hf_model(
        "ViTConfig", "ViTForImageClassification", wrapper=VisionLogitsOf, **VIT)),
    vision_arch("beit", "BEiT: relative position bias, layer scale", hf_model(
        "BeitConfig", "BeitForImageClassification", wrapper=VisionLogitsOf, **VIT)),
    vision_arch("dinov2", "DINOv2: interpolated position embeddings, layer scale", hf_model(
        "Dinov2Config", "Dinov2Model", wrapper=VisionLogitsOf, field="last_hidden_state", hidden_size=32,
        num_hidden_layers=2, num_attention_heads=4, image_size=32, patch_size=8)),
    # Swin's windowing on symbolic heights and widths takes torch.export minutes: the batch alone is dynamic.
    Arch("swin", "vision", "Swin: windowed attention with shifted windows (roll), patch merging",
         hf_model("SwinConfig", "SwinForImageClassification", wrapper=VisionLogitsOf, image_size=16, patch_size=2,
                  embed_dim=8, depths=[1, 1], num_heads=[1, 2], window_size=4, num_labels=10),
         image(2, 16), ("pixel_values",), ((0,),)),
    vision_arch("segformer", "SegFormer: overlapping patch merging, efficient attention with spatial reduction, "
                "all-MLP decoder", hf_model(
                    "SegformerConfig", "SegformerForSemanticSegmentation", wrapper=VisionLogitsOf,
                    num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[16, 32],
                    num_attention_heads=[1, 2], decoder_hidden_size=32, num_labels=5)),
    # CLIP's position embedding has a fixed number of patches: torch specializes a dynamic height and width.
    vision_arch("clip_vision", "CLIP vision tower: class token, fixed position embedding, pre-LayerNorm, QuickGELU",
                hf_model("CLIPVisionConfig", "CLIPVisionModel", wrapper=VisionLogitsOf, field="pooler_output",
                         hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                         image_size=32, patch_size=8)),
    # --- CNNs -------------------------------------------------------------------------
    vision_arch("resnet", "ResNet: bottleneck blocks, batch norm, max pool", hf_model(
        "ResNetConfig", "ResNetForImageClassification", wrapper=VisionLogitsOf, embedding_size=8, **STAGES)),
    vision_arch("resnet_deep", "ResNet-50 depths [3, 4, 6, 3] at small width", hf_model(
        "ResNetConfig", "ResNetForImageClassification", wrapper=VisionLogitsOf, embedding_size=8,
        hidden_sizes=[8, 16, 32, 64], depths=[3, 4, 6, 3], num_labels=10)),
    vision_arch("convnext", "ConvNeXt: depthwise 7x7 convs, channels-last LayerNorm, layer scale", hf_model(
        "ConvNextConfig", "ConvNextForImageClassification", wrapper=VisionLogitsOf, **STAGES)),
    vision_arch("regnet", "RegNet: grouped convs, squeeze-and-excitation", hf_model(
        "RegNetConfig", "RegNetForImageClassification", wrapper=VisionLogitsOf, embedding_size=8,
        groups_width=8, **STAGES)),
    vision_arch("mobilenet_v2", "MobileNetV2: inverted residuals, depthwise convs, ReLU6, TF-style padding", hf_model(
        "MobileNetV2Config", "MobileNetV2ForImageClassification", wrapper=VisionLogitsOf, depth_multiplier=0.25,
        image_size=32, num_labels=10)),
    vision_arch("efficientnet", "EfficientNet: MBConv blocks, squeeze-and-excitation, SiLU, depthwise padding",
                hf_model("EfficientNetConfig", "EfficientNetForImageClassification", wrapper=VisionLogitsOf,
                         width_coefficient=0.5, depth_coefficient=0.5, hidden_dim=640, image_size=32,
                         num_labels=10)),
    vision_arch("bit", "BiT: weight-standardized convs, group norm", hf_model(
        "BitConfig", "BitForImageClassification", wrapper=VisionLogitsOf, embedding_size=32, num_groups=8,
        hidden_sizes=[32, 32, 64, 64], depths=[1, 1, 1, 1], num_labels=10)),
    vision_arch("poolformer", "PoolFormer: average-pool token mixing, group norm", hf_model(
        "PoolFormerConfig", "PoolFormerForImageClassification", wrapper=VisionLogitsOf, **STAGES)),
    # --- speech ------------------------------------------------------------------------
    # Whisper's encoder takes exactly 2 * max_source_positions frames: the batch alone is dynamic.
    Arch("whisper_encoder", "speech", "Whisper encoder: two convs over log-mel frames, sinusoidal positions, "
         "pre-LayerNorm blocks, mean-pooled classifier",
         hf_model("WhisperConfig", "WhisperForAudioClassification", wrapper=AudioLogitsOf, vocab_size=VOCAB,
                  num_mel_bins=8, d_model=32, encoder_layers=2, encoder_attention_heads=4, encoder_ffn_dim=64,
                  decoder_layers=1, decoder_attention_heads=4, decoder_ffn_dim=64, max_source_positions=16,
                  max_target_positions=16, classifier_proj_size=16, num_labels=4,
                  pad_token_id=0, bos_token_id=0, eos_token_id=0, decoder_start_token_id=0),
         lambda: (torch.randn(2, 8, 32),), ("audio",), ((0,),)),
    Arch("wav2vec2", "speech", "Wav2Vec2: strided conv feature encoder, group norm, weight-normed positional conv, "
         "mean-pooled classifier",
         hf_model("Wav2Vec2Config", "Wav2Vec2ForSequenceClassification", wrapper=AudioLogitsOf, vocab_size=VOCAB,
                  hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                  conv_dim=(8, 8), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=4,
                  num_conv_pos_embedding_groups=2, classifier_proj_size=8, num_labels=4,
                  do_stable_layer_norm=False, feat_extract_norm="group"),
         lambda: (torch.randn(2, 400),), ("audio",), ((0, 1),)),
    # --- recurrent layers -------------------------------------------------------------
    Arch("lstm", "recurrent", "torch.nn.LSTM, 2 layers, batch_first, then a linear head",
         lambda: Recurrent(torch.nn.LSTM).eval(), lambda: (torch.randn(2, 5, 8),), ("x",), ((0, 1),),
         library="torch.nn"),
    Arch("nn_transformer", "recurrent", "torch.nn.TransformerEncoder (2 post-norm layers, batch_first) over "
         "(batch, time, features)", lambda: NnTransformer().eval(), lambda: (torch.randn(2, 5, 16),), ("x",),
         ((0, 1),), library="torch.nn"),
    Arch("gru", "recurrent", "torch.nn.GRU, 2 layers, bidirectional, batch_first, then a linear head",
         lambda: Recurrent(torch.nn.GRU, bidirectional=True).eval(), lambda: (torch.randn(2, 5, 8),), ("x",),
         ((0, 1),), library="torch.nn"),
    # --- timm's vision zoo (64x64 images; widths as timm's smallest configs) -------------
    # Its patch count is math.ceil of a size: torch.export.save cannot write that node (math.ceil is not one of
    # its symbolic ops), so height and width stay static.
    timm_arch("timm_mobilevit", "MobileViT-XXS: inverted residuals, then transformers over unfolded patches "
              "(unfold / fold by reshape and transpose)", "mobilevit_xxs", dynamic=(0,)),
    timm_arch("timm_efficientvit", "EfficientViT-B0 (MIT): MBConv stages, ReLU linear attention with multi-scale "
              "grouped-conv aggregation", "efficientvit_b0"),
    timm_arch("timm_levit", "LeViT-128S: conv stem, attention with learned position biases indexed by offset, "
              "hard-swish, attention subsampling", "levit_128s", img_size=64),
    timm_arch("timm_maxvit", "MaxViT (pico, relative-position MLP): MBConv, then block (window) and grid "
              "attention", "maxvit_rmlp_pico_rw_256", img_size=64),
    timm_arch("timm_repvgg", "RepVGG-A0: re-parameterisable blocks (3x3, 1x1 and identity branches, unfused)",
              "repvgg_a0"),
    timm_arch("timm_fastvit", "FastViT-T8: re-parameterisable MobileOne stem, RepMixer token mixing, conv FFN, "
              "large-kernel positional conv", "fastvit_t8"),
    timm_arch("timm_tiny_vit", "TinyViT-5M: MBConv stage, then windowed attention with attention biases over "
              "4-D x 3-D matmuls", "tiny_vit_5m_224"),
    # Windows of 4 over a 64x64 image: torch specializes height and width (window partitioning).
    timm_arch("timm_swin", "Swin (timm, narrow): shifted-window attention (roll), relative position bias, "
              "patch merging, channels-last stages", "swin_tiny_patch4_window7_224", img_size=64, embed_dim=16,
              depths=(2, 2, 2, 2), num_heads=(1, 2, 2, 4), window_size=4),
    timm_arch("timm_convnextv2", "ConvNeXt-V2 Atto: depthwise 7x7 convs, global response norm (GRN)",
              "convnextv2_atto"),
    timm_arch("timm_efficientformerv2", "EfficientFormerV2-S0: conv stages, then attention with talking heads "
              "and a strided attention downsample", "efficientformerv2_s0", img_size=64),
    timm_arch("timm_edgenext", "EdgeNeXt-XXS: conv encoders, split depthwise transposed attention (XCA) over "
              "channels, positional encoding", "edgenext_xx_small"),
    # --- torch's higher-order ops and pt2e quantization (corpus_programs.py) ------------
    Arch("hop_while_loop", "hop", "while_loop: a counter and a state through a closed-over Linear (3 steps)",
         lambda: cp.WhileLoop().eval(), lambda: (torch.randn(2, cp.WIDTH),), ("x",), ((0,),), library="torch"),
    Arch("hop_scan", "hop", "scan: a tanh RNN cell over the time steps, carry and stacked states",
         lambda: cp.Scan().eval(), lambda: (torch.randn(2, 5, cp.WIDTH),), ("x",), ((0, 1),), library="torch"),
    Arch("hop_cond_in_map", "hop", "map over the batch with a torch.cond on each row (operands lifted)",
         lambda: cp.CondInMap().eval(), lambda: (torch.randn(3, cp.WIDTH),), ("x",), ((0,),), library="torch"),
    Arch("hop_invoke_subgraph", "hop", "a nested_compile_region function called twice (invoke_subgraph)",
         lambda: cp.InvokeSubgraph().eval(), lambda: (torch.randn(2, cp.WIDTH), torch.randn(2, cp.WIDTH)),
         ("x", "y"), ((0,), (0,)), library="torch"),
    Arch("hop_autocast", "hop", "a torch.autocast('cpu', bfloat16) region: linear, relu, matmul with a buffer",
         lambda: cp.Autocast().eval(), lambda: (torch.randn(2, cp.WIDTH),), ("x",), ((0,),), library="torch"),
    Arch("hop_no_grad", "hop", "a torch.no_grad() region whose result scales the output",
         lambda: cp.NoGrad().eval(), lambda: (torch.randn(2, cp.WIDTH),), ("x",), ((0,),), library="torch"),
    Arch("hop_mutating_op", "hop", "a custom op (torch.library.custom_op) scaling a buffer in place",
         lambda: cp.MutatingOp().eval(), lambda: (torch.randn(2, cp.WIDTH),), ("x",), ((0,),), library="torch"),
    Arch("hop_mutating_list_op", "hop", "a custom op updating two buffers passed as a list, with a defaulted "
         "argument and a result", lambda: cp.MutatingListOp().eval(), lambda: (torch.randn(2, cp.WIDTH),), ("x",),
         ((0,),), library="torch"),
    Arch("pt2e_mlp", "pt2e", "torchao pt2e (X86InductorQuantizer): an MLP with int8 weights, uint8 activations",
         cp.pt2e_quantized(cp.Mlp, lambda: (torch.randn(4, 16),)), lambda: (torch.randn(4, 16),), ("x",), ((0,),),
         library="torchao"),
    Arch("pt2e_cnn", "pt2e", "torchao pt2e (X86InductorQuantizer): a conv, relu, mean-pool and linear",
         cp.pt2e_quantized(cp.Cnn, lambda: (torch.randn(2, 3, 8, 8),)), lambda: (torch.randn(2, 3, 8, 8),), ("x",),
         ((0,),), library="torchao"),
]


def auto_spec_text(arch: Arch, inputs: tuple) -> str:
    """dynamic_shapes with Dim.AUTO on the architecture's dynamic dims, the others static."""
    entries = []
    for name, t, dyn in zip(arch.arg_names, inputs, arch.dynamic_dims):
        dims = ["Dim.AUTO" if d in dyn else "Dim.STATIC" for d in range(t.dim())]
        entries.append(f'    "{name}": ({", ".join(dims)}{"," if len(dims) == 1 else ""}),')
    return "dynamic_shapes = {\n" + "\n".join(entries) + "\n}\n"


DIM_NAMES = {"lm": ("batch", "seq"), "encoder": ("batch", "seq"), "recurrent": ("batch", "steps"),
             "speech": ("batch", "samples"), "hop": ("batch", "steps"), "pt2e": ("batch",)}


def _dim_name(arch: Arch, arg: int, dim: int) -> str:
    if arch.family == "vision":
        return {0: "batch", 2: "height", 3: "width"}[dim]
    if arch.family == "seq2seq":
        return ("batch", "src_len" if arg == 0 else "tgt_len")[dim]
    return DIM_NAMES[arch.family][dim]


def specs(arch: Arch, inputs: tuple) -> list:
    """(case name, spec text, refine): named Dims on every dynamic dim; the batch alone."""
    named, batch = [], []
    for i, (name, t, dyn) in enumerate(zip(arch.arg_names, inputs, arch.dynamic_dims)):
        n_dims, b_dims = [], []
        for d in range(t.dim()):
            if d in dyn:
                dim = _dim_name(arch, i, d)
                n_dims.append(f'Dim("{dim}")')
                b_dims.append('Dim("batch", max=64)' if d == 0 else "None")
            else:
                n_dims.append("None")
                b_dims.append("None")
        named.append(f'    "{name}": ({", ".join(n_dims)}),')
        batch.append(f'    "{name}": ({", ".join(b_dims)}),')
    out = [("named", "dynamic_shapes = {\n" + "\n".join(named) + "\n}\n", True),
           ("batch", "dynamic_shapes = {\n" + "\n".join(batch) + "\n}\n", False)]
    out += list(arch.extra_specs)
    return out


def by_name(name: str) -> Optional[Arch]:
    return next((a for a in ARCHITECTURES if a.name == name), None)
