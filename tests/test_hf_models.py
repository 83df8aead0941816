"""Hugging Face transformers on mojo against the CPU: a tiny randomly initialised GPT-2 (tied
embeddings, SDPA attention) trains 20 steps with the same losses and parameters, its
gradients match, and greedy generation (with a left-padded batch) yields the same tokens.
Nothing is downloaded: the model is built from a config."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

VOCAB = 97


def tiny_gpt2():
    config = transformers.GPT2Config(
        vocab_size=VOCAB,
        n_positions=64,
        n_embd=32,
        n_layer=2,
        n_head=4,
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=1,
    )
    torch.manual_seed(0)
    return transformers.GPT2LMHeadModel(config)


def train(device, steps=20):
    model = tiny_gpt2().to(device)
    assert model.lm_head.weight is model.transformer.wte.weight
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    ids = torch.randint(2, VOCAB, (4, 16), generator=torch.Generator().manual_seed(1))
    ids = ids.to(device)
    losses = []
    for _ in range(steps):
        loss = model(ids, labels=ids).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, {n: p.detach().cpu() for n, p in model.named_parameters()}


def test_gpt2_trains_like_cpu(device):
    ours, our_params = train(device)
    theirs, their_params = train("cpu")
    assert ours == pytest.approx(theirs, rel=1e-4)
    assert ours[-1] < ours[0], "the model should learn"
    for name, value in their_params.items():
        ours_value = our_params[name]
        if name.endswith("attn.c_attn.bias"):
            # The key bias shifts every score of a query equally: its true gradient is zero,
            # and AdamW turns each device's rounding noise there into full-size steps.
            keep = torch.ones_like(value, dtype=torch.bool)
            keep[32:64] = False
            value, ours_value = value[keep], ours_value[keep]
        torch.testing.assert_close(ours_value, value, atol=1e-4, rtol=1e-4, msg=name)


def test_gpt2_gradients_match_cpu(device):
    model = tiny_gpt2()
    ids = torch.randint(2, VOCAB, (2, 12), generator=torch.Generator().manual_seed(2))
    mask = torch.ones_like(ids)
    mask[1, :3] = 0  # left padding
    model(ids, attention_mask=mask, labels=ids).loss.backward()
    expected = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    model.to(device)
    model(ids.to(device), attention_mask=mask.to(device), labels=ids.to(device)).loss.backward()
    for name, p in model.named_parameters():
        torch.testing.assert_close(p.grad.cpu(), expected[name], atol=1e-5, rtol=1e-4, msg=name)


def test_gpt2_greedy_generation_matches_cpu(device):
    model = tiny_gpt2().eval()
    ids = torch.randint(2, VOCAB, (2, 5), generator=torch.Generator().manual_seed(3))
    mask = torch.ones_like(ids)
    ids[0, :2], mask[0, :2] = 1, 0  # left padding
    with torch.no_grad():
        expected = model.generate(ids, attention_mask=mask, max_new_tokens=10, do_sample=False)
        model.to(device)
        actual = model.generate(
            ids.to(device), attention_mask=mask.to(device), max_new_tokens=10, do_sample=False
        )
    assert torch.equal(actual.cpu(), expected)


def test_gpt2_compiled_bfloat16_step_with_dropout(device):
    """torch.compile of a bfloat16-autocast training step with dropout (its combo kernels mix
    a reduction with the pointwise nodes fused after it, which failed to schedule) runs: the
    loss near eager mojo's (the dropout masks differ), finite gradients everywhere."""
    import torch._dynamo

    ids = torch.randint(2, VOCAB, (2, 16), generator=torch.Generator().manual_seed(4)).to(device)

    def run(compile_step):
        torch.manual_seed(0)
        config = transformers.GPT2Config(
            vocab_size=VOCAB, n_positions=32, n_embd=32, n_layer=2, n_head=4
        )
        model = transformers.GPT2LMHeadModel(config).to(device)

        def step():
            with torch.autocast("mojo", dtype=torch.bfloat16):
                loss = model(ids, labels=ids).loss
            loss.backward()
            return loss

        torch._dynamo.reset()
        loss = (torch.compile(step) if compile_step else step)()
        return loss.item(), [p.grad for p in model.parameters()]

    eager_loss, _ = run(False)
    loss, grads = run(True)
    assert loss == pytest.approx(eager_loss, rel=0.1)
    assert all(g is not None and torch.isfinite(g).all() for g in grads)
