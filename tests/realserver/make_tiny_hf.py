#!/usr/bin/env python3
"""Writes a tiny random-weight Llama in Hugging Face format for the vLLM integration tests.

usage: make_tiny_hf.py OUT_DIR     (run with the vLLM venv's python: needs torch, transformers, tokenizers)

Everything is made offline: a byte-level BPE tokenizer (2048 entries) is trained on the Python
standard library's own sources, so nothing is downloaded. Model: hidden 128, 2 layers, 4 heads of
32, intermediate 256, bf16, 4096 positions, random weights (fixed seed). A chat template with
<|system|>/<|user|>/<|assistant|> markers lets /v1/chat/completions render messages.
"""
import glob
import os
import sys

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

SPECIAL = ["<unk>", "<s>", "</s>", "<pad>", "<|system|>", "<|user|>", "<|assistant|>"]
CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}</s>\n{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>\n{% endif %}")


def train_tokenizer():
    stdlib = os.path.dirname(os.__file__)
    corpus = sorted(glob.glob(os.path.join(stdlib, "*.py")))[:150]
    bpe = Tokenizer(models.BPE(unk_token=None, byte_fallback=False))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train(corpus, trainers.BpeTrainer(vocab_size=2048, special_tokens=SPECIAL, show_progress=False,
                                          initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    bos = bpe.token_to_id("<s>")
    bpe.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", bos)])
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="</s>",
                                  unk_token="<unk>", pad_token="<pad>", model_max_length=2048)
    tok.chat_template = CHAT_TEMPLATE
    return tok


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_tiny_hf.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tok = train_tokenizer()
    tok.save_pretrained(out)
    vocab = (len(tok) + 63) // 64 * 64          # padded like real checkpoints
    torch.manual_seed(20261201)
    ids = dict(bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    config = LlamaConfig(vocab_size=vocab, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, head_dim=32,
                         max_position_embeddings=4096, rms_norm_eps=1e-5, tie_word_embeddings=False,
                         torch_dtype="bfloat16", **ids)
    model = LlamaForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(out)
    GenerationConfig(**ids).save_pretrained(out)
    params = sum(p.numel() for p in model.parameters())
    print(f"{out}: vocab {vocab}, {params} parameters")


if __name__ == "__main__":
    main()
