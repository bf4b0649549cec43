"""A tiny randomly initialised Llama (seeded) for the fluency-model tests: no download, built in milliseconds."""
from __future__ import annotations


def tiny_llama(max_positions: int = 256):
    import torch
    import transformers

    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                   num_attention_heads=4, num_key_value_heads=2,
                                   max_position_embeddings=max_positions)
    return transformers.LlamaForCausalLM(cfg).eval()
