"""Shared (tied) parameters stay one Parameter when a module moves to mojo and back.

nn.Module._apply cannot set `param.data` across CPU and PrivateUse1 tensors, so without
`torch.__future__.set_swap_module_params_on_conversion(True)` (turned on by
register_mojo_devices) `.to("mojo")` makes a new Parameter per module and unties them.
"""

import copy

import pytest
import torch

VOCAB, WIDTH = 16, 8


class TinyGPT(torch.nn.Module):
    """Embedding, a layer in between, and a head that shares the embedding's weight."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, WIDTH)
        self.mid = torch.nn.Linear(WIDTH, WIDTH)
        self.head = torch.nn.Linear(WIDTH, VOCAB, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, tokens):
        return self.head(torch.tanh(self.mid(self.emb(tokens))))


class HFStyleLM(torch.nn.Module):
    """Ties its weights the way Hugging Face models do: `tie_weights()` from `__init__`."""

    def __init__(self):
        super().__init__()
        self.transformer = torch.nn.ModuleDict(
            {"wte": torch.nn.Embedding(VOCAB, WIDTH), "ln_f": torch.nn.LayerNorm(WIDTH)}
        )
        self.lm_head = torch.nn.Linear(WIDTH, VOCAB, bias=False)
        self.tie_weights()

    def get_input_embeddings(self):
        return self.transformer["wte"]

    def get_output_embeddings(self):
        return self.lm_head

    def tie_weights(self):
        self.get_output_embeddings().weight = self.get_input_embeddings().weight

    def forward(self, tokens):
        return self.lm_head(self.transformer["ln_f"](self.transformer["wte"](tokens)))


def batch():
    generator = torch.Generator().manual_seed(1)
    tokens = torch.randint(0, VOCAB, (4, 6), generator=generator)
    targets = torch.randint(0, VOCAB, (4, 6), generator=generator)
    return tokens, targets


def loss_of(model, tokens, targets):
    return torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), targets.flatten())


def assert_tied(model):
    assert model.head.weight is model.emb.weight
    assert len(list(model.parameters())) == 3  # the shared weight and mid's weight and bias


def test_gpt_tie_survives_to_device_and_trains_like_cpu(device):
    torch.manual_seed(0)
    cpu_model = TinyGPT()
    model = copy.deepcopy(cpu_model).to(device)
    assert len(list(model.parameters())) == len(list(cpu_model.parameters())) == 3
    assert model.head.weight is model.emb.weight
    assert model.emb.weight.device.type == torch.device(device).type

    tokens, targets = batch()
    losses = {}
    for name, net, dev in [("mojo", model, device), ("cpu", cpu_model, "cpu")]:
        optimizer = torch.optim.AdamW(net.parameters(), lr=1e-2)
        losses[name] = []
        for _ in range(3):
            optimizer.zero_grad()
            loss = loss_of(net, tokens.to(dev), targets.to(dev))
            loss.backward()
            optimizer.step()
            losses[name].append(loss.item())
    assert_tied(model)
    torch.testing.assert_close(losses["mojo"], losses["cpu"], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(
        model.emb.weight.detach().cpu(), cpu_model.emb.weight.detach(), rtol=1e-5, atol=1e-5
    )
    # Both modules see the trained weight, not just the one the optimizer stepped.
    torch.testing.assert_close(
        model.head.weight.detach().cpu(), cpu_model.emb.weight.detach(), rtol=1e-5, atol=1e-5
    )


def test_hf_style_tie_weights_survives_to_device(device):
    torch.manual_seed(0)
    cpu_model = HFStyleLM()
    model = copy.deepcopy(cpu_model).to(device)
    assert model.lm_head.weight is model.transformer["wte"].weight
    assert model.get_output_embeddings().weight is model.get_input_embeddings().weight
    assert len(list(model.parameters())) == len(list(cpu_model.parameters())) == 3
    tokens, _ = batch()
    with torch.no_grad():
        torch.testing.assert_close(
            model(tokens.to(device)).cpu(), cpu_model(tokens), rtol=1e-5, atol=1e-5
        )


def test_transformers_gpt2_tie_survives_to_device(device):
    transformers = pytest.importorskip("transformers")
    config = transformers.GPT2Config(n_layer=1, n_head=2, n_embd=16, vocab_size=50, n_positions=16)
    torch.manual_seed(0)
    cpu_model = transformers.GPT2LMHeadModel(config)
    assert cpu_model.lm_head.weight is cpu_model.transformer.wte.weight
    model = copy.deepcopy(cpu_model).to(device)
    assert model.lm_head.weight is model.transformer.wte.weight
    assert len(list(model.parameters())) == len(list(cpu_model.parameters()))


def test_tie_survives_round_trips_and_dtype_changes(device):
    torch.manual_seed(0)
    model = TinyGPT()
    reference = model.emb.weight.detach().clone()
    emb_weight = model.emb.weight

    model.to(device)
    assert_tied(model)
    model.to("cpu")
    assert_tied(model)
    assert model.emb.weight.device.type == "cpu"
    model.to(device)
    assert_tied(model)
    assert model.emb.weight is emb_weight  # the same Parameter object all along
    torch.testing.assert_close(model.emb.weight.detach().cpu(), reference, rtol=0, atol=0)

    model.half()
    assert_tied(model)
    assert model.emb.weight.dtype == torch.float16
    assert model.emb.weight.device.type == torch.device(device).type
    torch.testing.assert_close(model.emb.weight.detach().cpu(), reference.half())

    model.to(torch.float64)
    assert_tied(model)
    assert model.emb.weight.dtype == torch.float64
    assert model.emb.weight.device.type == torch.device(device).type
    torch.testing.assert_close(model.emb.weight.detach().cpu(), reference.half().double())


def test_optimizer_built_before_to_device_steps_the_moved_parameters(device):
    torch.manual_seed(0)
    model = TinyGPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.to(device)

    held = optimizer.param_groups[0]["params"]
    assert len(held) == 3
    for mine, theirs in zip(held, model.parameters(), strict=True):
        assert mine is theirs
        assert mine.device.type == torch.device(device).type

    before = [p.detach().cpu().clone() for p in model.parameters()]
    tokens, targets = batch()
    optimizer.zero_grad()
    loss_of(model, tokens.to(device), targets.to(device)).backward()
    optimizer.step()
    for param, old in zip(model.parameters(), before, strict=True):
        assert not torch.equal(param.detach().cpu(), old)
    assert_tied(model)


def test_load_cpu_state_dict_into_model_on_device_keeps_tie(device):
    torch.manual_seed(0)
    source = TinyGPT()
    state = source.state_dict()
    assert set(state) == {"emb.weight", "mid.weight", "mid.bias", "head.weight"}

    torch.manual_seed(1)
    model = TinyGPT().to(device)
    model.load_state_dict(state)
    assert_tied(model)
    for name, param in model.named_parameters():
        assert param.device.type == torch.device(device).type
        torch.testing.assert_close(param.detach().cpu(), state[name], rtol=0, atol=0)
    torch.testing.assert_close(model.head.weight.detach().cpu(), state["head.weight"])

    tokens, _ = batch()
    with torch.no_grad():
        torch.testing.assert_close(
            model(tokens.to(device)).cpu(), source(tokens), rtol=1e-5, atol=1e-5
        )


def test_tied_gradient_sums_both_uses_like_cpu(device):
    torch.manual_seed(0)
    cpu_model = TinyGPT()
    model = copy.deepcopy(cpu_model).to(device)
    tokens, targets = batch()

    loss_of(cpu_model, tokens, targets).backward()
    loss_of(model, tokens.to(device), targets.to(device)).backward()
    assert_tied(model)
    torch.testing.assert_close(
        model.emb.weight.grad.cpu(), cpu_model.emb.weight.grad, rtol=1e-5, atol=1e-5
    )

    # The CPU's tied gradient is the embedding's part plus the head's part.
    untied = copy.deepcopy(cpu_model)
    untied.head.weight = torch.nn.Parameter(cpu_model.emb.weight.detach().clone())
    untied.zero_grad()
    loss_of(untied, tokens, targets).backward()
    assert untied.emb.weight.grad.abs().sum() > 0
    assert untied.head.weight.grad.abs().sum() > 0
    torch.testing.assert_close(
        cpu_model.emb.weight.grad,
        untied.emb.weight.grad + untied.head.weight.grad,
        rtol=1e-5,
        atol=1e-6,
    )
