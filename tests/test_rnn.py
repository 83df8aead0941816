"""Recurrent layers on mojo (the fused LSTM and GRU cells) against the CPU: forward and
backward, several layers, both directions, batch_first, packed sequences, and a language
model trained for a few steps."""

import pytest
import torch


def compare(device, make, inputs, rtol=1e-4, atol=1e-5):
    torch.manual_seed(0)
    module = make()
    reference = make()
    reference.load_state_dict(module.state_dict())
    module.to(device)
    results = []
    for net, where in [(reference, "cpu"), (module, device)]:
        xs = [t.detach().to(where).requires_grad_(t.is_floating_point()) for t in inputs]
        out = net(*xs)
        flat = [out[0]] + (list(out[1]) if isinstance(out[1], tuple) else [out[1]])
        loss = sum(
            (t * torch.linspace(-1, 1, t.numel(), device=where).view(t.shape)).sum() for t in flat
        )
        loss.backward()
        results.append(
            [t.detach().cpu() for t in flat]
            + [x.grad.cpu() for x in xs if x.requires_grad]
            + [p.grad.cpu() for p in net.parameters()]
        )
    for mine, theirs in zip(results[1], results[0], strict=True):
        torch.testing.assert_close(mine, theirs, rtol=rtol, atol=atol)


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize(
    "options",
    [dict(), dict(num_layers=2, bidirectional=True), dict(batch_first=True, bias=False)],
)
def test_layers_match_cpu(device, kind, options):
    make = lambda: getattr(torch.nn, kind)(5, 7, **options)  # noqa: E731
    x = torch.randn(3, 4, 5) if not options.get("batch_first") else torch.randn(4, 3, 5)
    compare(device, make, [x])


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_initial_state_and_cells(device, kind):
    make = lambda: getattr(torch.nn, kind)(4, 6, num_layers=2)  # noqa: E731
    h = torch.randn(2, 3, 6)
    state = (h, torch.randn(2, 3, 6)) if kind == "LSTM" else h
    x = torch.randn(5, 3, 4)
    torch.manual_seed(0)
    net = make()
    expected = net(x, state)[0]
    actual = net.to(device)(
        x.to(device),
        tuple(s.to(device) for s in state) if kind == "LSTM" else state.to(device),
    )[0]
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-4, atol=1e-5)
    cell = getattr(torch.nn, kind + "Cell")(4, 6)
    hx = torch.randn(3, 6)
    cell_state = (hx, hx * 0.5) if kind == "LSTM" else hx
    expected = cell(x[0], cell_state)
    on_device = cell.to(device)
    moved = tuple(s.to(device) for s in cell_state) if kind == "LSTM" else cell_state.to(device)
    actual = on_device(x[0].to(device), moved)
    pairs = zip(
        actual if kind == "LSTM" else [actual],
        expected if kind == "LSTM" else [expected],
        strict=True,
    )
    for a, e in pairs:
        torch.testing.assert_close(a.cpu(), e, rtol=1e-4, atol=1e-5)


def test_packed_sequences(device):
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(3, 5, bidirectional=True)
    x = torch.randn(6, 4, 3)
    lengths = torch.tensor([6, 4, 3, 1])
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths)
    expected, _ = torch.nn.utils.rnn.pad_packed_sequence(lstm(packed)[0])
    lstm.to(device)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x.to(device), lengths)
    actual, _ = torch.nn.utils.rnn.pad_packed_sequence(lstm(packed)[0])
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-4, atol=1e-5)


def test_lstm_language_model_trains_like_cpu(device):
    def train(where):
        torch.manual_seed(0)
        embed = torch.nn.Embedding(20, 8).to(where)
        lstm = torch.nn.LSTM(8, 16, num_layers=2, batch_first=True).to(where)
        head = torch.nn.Linear(16, 20).to(where)
        params = [*embed.parameters(), *lstm.parameters(), *head.parameters()]
        optimizer = torch.optim.Adam(params, lr=1e-2)
        data = torch.randint(0, 20, (4, 9)).to(where)
        losses = []
        for _ in range(8):
            optimizer.zero_grad()
            hidden, _ = lstm(embed(data[:, :-1]))
            logits = head(hidden)
            loss = torch.nn.functional.cross_entropy(
                logits.reshape(-1, 20), data[:, 1:].reshape(-1)
            )
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    assert train(device) == pytest.approx(train("cpu"), rel=1e-4)


def test_load_state_dict_and_moves(device):
    # Registration makes `.to()` swap parameters (ties survive); load_state_dict keeps its
    # stock behaviour, which swapping would break for the LSTM's weak references.
    source, target = torch.nn.LSTM(3, 4), torch.nn.LSTM(3, 4)
    target.load_state_dict(source.state_dict())
    target.to(device).load_state_dict(source.state_dict())
    torch.testing.assert_close(target.weight_ih_l0.cpu(), source.weight_ih_l0)
    # A parameter an autograd graph still saves is moved as a new Parameter (running that
    # graph's backward afterwards is what PyTorch's swapping forbids).
    net = torch.nn.GRU(3, 4)
    kept = net(torch.randn(2, 1, 3))[0]
    net.to(device)
    assert net.weight_hh_l0.device.type == device.type
    assert kept.grad_fn is not None
