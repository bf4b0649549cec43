"""Tiny randomly initialised Hugging Face models for the recipe tests, built offline in a tmp dir.

- :func:`tiny_t5`: a one-layer ``T5ForConditionalGeneration`` with a word-level tokenizer trained here
  with the ``tokenizers`` library (whitespace split, lower-cased, ``</s>`` appended) wrapped in
  ``PreTrainedTokenizerFast``;
- :func:`tiny_bert`: a small ``BertForSequenceClassification`` (any ``id2label``) with a word vocab.

Both are saved with ``save_pretrained`` (safetensors), as a user's local checkpoint would be.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def tiny_t5(path: Path, texts: Iterable[str], *, d_model: int = 32, vocab_size: int = 3000, seed: int = 0) -> Path:
    import torch
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    tk = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tk.normalizer = normalizers.Lowercase()
    tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    base = ["review:", "statement:", "label:", "justification:", "true", "false", "not-given"]
    tk.train_from_iterator([*base, *texts], trainers.WordLevelTrainer(
        vocab_size=vocab_size, special_tokens=["<pad>", "</s>", "<unk>"]))
    tk.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="<pad>", eos_token="</s>",
                                               unk_token="<unk>")
    torch.manual_seed(seed)
    cfg = transformers.T5Config(vocab_size=len(tok), d_model=d_model, d_kv=16, d_ff=64, num_layers=1,
                                num_decoder_layers=1, num_heads=2, decoder_start_token_id=0, pad_token_id=0,
                                eos_token_id=1)
    path.mkdir(parents=True, exist_ok=True)
    transformers.T5ForConditionalGeneration(cfg).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path


def tiny_bert(path: Path, texts: Iterable[str], id2label: dict[int, str], *, seed: int = 0,
              hidden: int = 16) -> Path:
    import torch
    import transformers

    words = sorted({w for t in texts for w in t.lower().split()})[:3000]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    path.mkdir(parents=True, exist_ok=True)
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    tok = transformers.BertTokenizerFast(vocab_file=str(path / "vocab.txt"), do_lower_case=True)
    torch.manual_seed(seed)
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=hidden, num_hidden_layers=1,
                                  num_attention_heads=2, intermediate_size=32, max_position_embeddings=128,
                                  id2label=id2label, label2id={v: k for k, v in id2label.items()})
    transformers.BertForSequenceClassification(cfg).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path
