#!/usr/bin/env python3
"""Writes a tiny random-weight Llama GGUF for the llama-server integration tests.

usage: make_tiny_gguf.py OUT.gguf VOCAB.gguf
  VOCAB.gguf  a vocab-only GGUF from the llama.cpp tree (models/ggml-vocab-llama-spm.gguf:
              the 32,000-token SentencePiece vocab); its tokenizer metadata is copied.

Shape: 2 blocks, embedding width 128, 4 attention heads of 32, feed-forward 256, F32 weights,
32768-token context. Output is gibberish but deterministic weights (fixed seed).

The model must never end an answer early, so every request runs to max_tokens and the tests can
count tokens exactly. How: channel 0 of every token embedding holds a constant positive value and
no block writes to channel 0 (row 0 of the attention output and FFN down projections is zero), so
channel 0 stays positive through the final RMS norm. The unembedding rows of the special tokens
(unk, bos, eos) weigh only channel 0, with a large negative weight: their logits are always far
below every other token's, so no sampler picks them.
"""
import sys

import numpy as np
import gguf

BLOCKS, WIDTH, HEADS, FFN, CONTEXT = 2, 128, 4, 256, 32768
HEAD_WIDTH = WIDTH // HEADS
SEED = 20261201


def vocab_metadata(path):
    """Tokenizer fields of a vocab-only GGUF, by key (absent keys are None)."""
    reader = gguf.GGUFReader(path)
    def get(key):
        f = reader.fields.get(key)
        return None if f is None else f.contents()
    keys = ["model", "pre", "tokens", "scores", "token_type", "merges", "bos_token_id",
            "eos_token_id", "unknown_token_id", "add_bos_token", "add_eos_token"]
    return {k: get("tokenizer.ggml." + k) for k in keys}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    out_path, vocab_path = sys.argv[1], sys.argv[2]
    voc = vocab_metadata(vocab_path)
    if not voc["tokens"]:
        sys.exit(f"{vocab_path}: no tokenizer.ggml.tokens")
    n_vocab = len(voc["tokens"])

    w = gguf.GGUFWriter(out_path, "llama")
    w.add_name("sweepbench-tiny-llama")
    w.add_context_length(CONTEXT)
    w.add_embedding_length(WIDTH)
    w.add_block_count(BLOCKS)
    w.add_feed_forward_length(FFN)
    w.add_head_count(HEADS)
    w.add_head_count_kv(HEADS)
    w.add_rope_dimension_count(HEAD_WIDTH)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)

    w.add_tokenizer_model(voc["model"])
    if voc["pre"] is not None:
        w.add_tokenizer_pre(voc["pre"])
    w.add_token_list(voc["tokens"])
    if voc["scores"] is not None:
        w.add_token_scores(voc["scores"])
    if voc["token_type"] is not None:
        w.add_token_types(voc["token_type"])
    if voc["merges"] is not None:
        w.add_token_merges(voc["merges"])
    for key, add in (("bos_token_id", w.add_bos_token_id), ("eos_token_id", w.add_eos_token_id),
                     ("unknown_token_id", w.add_unk_token_id)):
        if voc[key] is not None:
            add(voc[key])
    for key, add in (("add_bos_token", w.add_add_bos_token), ("add_eos_token", w.add_add_eos_token)):
        if voc[key] is not None:
            add(bool(voc[key]))
    # ChatML, so /v1/chat/completions has a template to render.
    w.add_chat_template(
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")

    rng = np.random.default_rng(SEED)

    def normal(rows, cols, scale):
        return (rng.standard_normal((rows, cols)) * scale).astype(np.float32)

    embedding = normal(n_vocab, WIDTH, 1.0)
    embedding[:, 0] = 4.0                       # the constant positive channel
    w.add_tensor("token_embd.weight", embedding)
    ones = np.ones(WIDTH, dtype=np.float32)
    s_in, s_ffn = WIDTH ** -0.5, FFN ** -0.5
    for b in range(BLOCKS):
        name = f"blk.{b}."
        w.add_tensor(name + "attn_norm.weight", ones)
        for proj in ("attn_q", "attn_k", "attn_v"):
            w.add_tensor(name + proj + ".weight", normal(WIDTH, WIDTH, s_in))
        attn_out = normal(WIDTH, WIDTH, s_in)
        attn_out[0, :] = 0.0                    # blocks never write channel 0
        w.add_tensor(name + "attn_output.weight", attn_out)
        w.add_tensor(name + "ffn_norm.weight", ones)
        w.add_tensor(name + "ffn_gate.weight", normal(FFN, WIDTH, s_in))
        w.add_tensor(name + "ffn_up.weight", normal(FFN, WIDTH, s_in))
        down = normal(WIDTH, FFN, s_ffn)
        down[0, :] = 0.0
        w.add_tensor(name + "ffn_down.weight", down)
    w.add_tensor("output_norm.weight", ones)

    unembed = normal(n_vocab, WIDTH, 0.3)       # spread logits: varied samples
    unembed[:, 0] = 0.0
    special = sorted({voc[k] for k in ("bos_token_id", "eos_token_id", "unknown_token_id")
                      if voc[k] is not None})
    for t in special:
        unembed[t, :] = 0.0
        unembed[t, 0] = -100.0                  # always hugely negative: never sampled
    w.add_tensor("output.weight", unembed)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"{out_path}: {BLOCKS} blocks, width {WIDTH}, vocab {n_vocab}, special ids {special} suppressed")


if __name__ == "__main__":
    main()
