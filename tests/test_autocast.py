"""Autocast with CUDA's per-op policy (the spec's Mixed precision section)."""

import pytest
import torch


def test_the_spec_autocast_example(device):
    model = torch.nn.Linear(16, 4).to(device)
    x = torch.randn(8, 16, device=device)
    target = torch.randint(0, 4, (8,), device=device)
    with torch.autocast(torch.device(device).type, dtype=torch.bfloat16):
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, target)
    loss.backward()
    assert (logits.dtype, loss.dtype, model.weight.grad.dtype) == (
        torch.bfloat16,
        torch.float32,
        torch.float32,
    )


def test_default_dtype_is_float16_and_policies_follow_cuda(device):
    a = torch.randn(4, 4, device=device)
    with torch.autocast("mojo"):
        assert torch.get_autocast_dtype("mojo") == torch.float16
        assert (a @ a).dtype == torch.float16  # lower precision
        assert torch.softmax(a, 0).dtype == torch.float32  # float32 policy
        assert torch.addcmul(a, a.half(), a).dtype == torch.float32  # promote
        with pytest.raises(RuntimeError, match="unsafe to autocast"):
            torch.nn.functional.binary_cross_entropy(torch.sigmoid(a), torch.rand(4, 4).to(device))
    assert torch.amp.autocast_mode.is_autocast_available("mojo")
    assert torch.float16 in torch.mojo.get_amp_supported_dtype()


def test_autocast_matches_stock_cpu_bfloat16_matmul(device):
    a, b = torch.randn(8, 16), torch.randn(16, 4)
    with torch.autocast("mojo", dtype=torch.bfloat16):
        ours = (a.to(device) @ b.to(device)).cpu()
    expected = a.bfloat16() @ b.bfloat16()
    torch.testing.assert_close(ours, expected, rtol=1.6e-2, atol=1e-2)


def test_the_spec_grad_scaler_example(device):
    device = torch.device(device)
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), fused=True)
    scaler = torch.amp.GradScaler(device.type)
    x = torch.randn(8, 16, device=device)
    target = torch.randint(0, 4, (8,), device=device)

    for _ in range(3):
        with torch.autocast(device.type, dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), target)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # optional: to clip or inspect gradients
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
    assert scaler.get_scale() == 65536.0


def host_syncs():
    from torch_mojo_backend import _C

    return _C.host_sync_count()


@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("name", ["AdamW", "Adagrad"])
def test_grad_scaler_never_syncs_and_skips_overflowing_steps(device, fused, name):
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = getattr(torch.optim, name)(
        model.parameters(), fused=fused, foreach=not fused or None
    )
    scaler = torch.amp.GradScaler("mojo", growth_interval=2)
    x, target = torch.randn(8, 16).to(device), torch.randint(0, 4, (8,)).to(device)

    def step(poison=False):
        with torch.autocast("mojo", dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), target)
        scaler.scale(loss).backward()
        if poison:
            model.weight.grad[0, 0] = float("nan")
        before = host_syncs()
        scaler.unscale_(optimizer)
        assert host_syncs() == before, "unscale_ synchronised"
        scaler.step(optimizer)
        before = host_syncs()
        scaler.update()
        assert host_syncs() == before, "update synchronised"
        optimizer.zero_grad()

    step()
    weights = [p.detach().cpu() for p in model.parameters()]
    step(poison=True)
    assert scaler.get_scale() == 32768.0  # halved
    for before, after in zip(weights, model.parameters(), strict=True):
        assert torch.equal(before, after.detach().cpu()), "an overflowing step changed a weight"
    step()
    step()
    assert scaler.get_scale() == 65536.0  # grown back after growth_interval clean steps


def three_steps(device, model, optimizer):
    """Three classification steps of `model` (16 features, 4 classes); its parameters after."""
    x, y = torch.randn(8, 16).to(device), torch.randint(0, 4, (8,)).to(device)
    for _ in range(3):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    return [p.detach().cpu() for p in model.parameters()]


@pytest.mark.parametrize(
    "name, options",
    [
        ("AdamW", {}),
        ("Adam", {"amsgrad": True, "weight_decay": 0.1}),
        ("SGD", {"momentum": 0.9}),
        ("Adagrad", {"lr_decay": 0.05, "weight_decay": 0.1, "maximize": True}),
    ],
)
def test_fused_optimizers_equal_the_foreach_path(device, name, options):
    def train(fused):
        torch.manual_seed(0)
        model = torch.nn.Sequential(
            torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
        ).to(device)
        kind = {"fused": True} if fused else {"foreach": True}
        optimizer = getattr(torch.optim, name)(model.parameters(), lr=1e-2, **kind, **options)
        return three_steps(device, model, optimizer)

    for fused, foreach in zip(train(True), train(False), strict=True):
        torch.testing.assert_close(fused, foreach, rtol=1e-6, atol=1e-7)


def spec_loop(device, dtype, steps=100):
    """The spec's loop with `dtype` autocast, a GradScaler for float16 and fused AdamW; the
    data is drawn on the host so both devices train on the same numbers."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)
    ).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    scaler = torch.amp.GradScaler(device) if dtype == torch.float16 else None
    x, y = torch.randn(32, 64).to(device), torch.randint(0, 10, (32,)).to(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        with torch.autocast(device, dtype=dtype):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_mixed_precision_training_tracks_the_cpu(device, dtype):
    """100 steps against CPU autocast. CPU and CUDA autocast cast the same matmuls (linear) to
    the low precision, but round products and sums in different orders, so each step's loss
    differs by a few low-precision ulps of the logits. Measured over 100 steps: at most 6.7e-4
    relative for float16 (11-bit significand) and 4.0e-3 for bfloat16 (8 bits); the bounds
    leave about 3x headroom, and both runs learn."""
    ours, reference = spec_loop("mojo", dtype), spec_loop("cpu", dtype)
    bound = 2e-3 if dtype == torch.float16 else 1.2e-2
    assert ours == pytest.approx(reference, rel=bound)
    assert ours[-1] < 0.5 * ours[0]


@pytest.mark.parametrize("name", ["Adam", "AdamW", "SGD", "Adagrad"])
@pytest.mark.parametrize("where", ["mojo", "cpu"])
def test_fused_optimizers_take_a_tensor_learning_rate(device, name, where):
    """`lr` as a tensor (the `.tensor_lr` overloads): on the device it is read by the kernel,
    on the host as a number; both step as the float learning rate does."""

    def train(lr):
        torch.manual_seed(0)
        model = torch.nn.Linear(16, 4).to(device)
        options = {"momentum": 0.9} if name == "SGD" else {}
        optimizer = getattr(torch.optim, name)(model.parameters(), lr=lr, fused=True, **options)
        return three_steps(device, model, optimizer)

    # float32: a device without float64 compares no float64 tensor (the optimizer checks lr < 0).
    lr = torch.tensor(1e-2, dtype=torch.float32, device=where if where == "cpu" else device)
    for tensor_lr, float_lr in zip(train(lr), train(1e-2), strict=True):
        torch.testing.assert_close(tensor_lr, float_lr, rtol=1e-6, atol=1e-7)


def test_fused_adagrad_past_the_launch_limits(device):
    """A parameter of 5M elements (past 65,535 groups of 64 invocations) and a list longer than
    one launch's tensors step as the foreach path does."""
    torch.manual_seed(3)
    shapes = [(5_000_001,)] + [(7, 3)] * 30

    def step(fused):
        params = [torch.ones(s, device=device, requires_grad=True) for s in shapes]
        for i, p in enumerate(params):
            # Gradients away from -weight_decay * param, where the sum cancels (float64 in the
            # fused step, float32 in the foreach path).
            p.grad = torch.linspace(0.5, 1.5, p.numel(), device=device).view(p.shape) * (i + 1)
        kind = {"fused": True} if fused else {"foreach": True}
        optimizer = torch.optim.Adagrad(params, lr=0.1, lr_decay=0.01, weight_decay=0.1, **kind)
        optimizer.step()
        optimizer.step()
        return [p.detach().cpu() for p in params]

    for fused, foreach in zip(step(True), step(False), strict=True):
        torch.testing.assert_close(fused, foreach, rtol=1e-6, atol=1e-7)
