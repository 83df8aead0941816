"""Convolutions on mojo against the CPU: every geometry, both memory formats, gradients,
double backward, and sizes past the kernel's limits (a summed dimension split into partial
sums, more positions than one grid row, many groups)."""

import pytest
import torch
import torch.nn.functional as F


def compare(device, fn, *tensors, atol=1e-4, rtol=1e-4, dtype=torch.float32):
    """Runs `fn` on CPU and mojo copies of `tensors`; compares outputs and input gradients."""
    cpu = [t.to(dtype).detach().requires_grad_(dtype.is_floating_point) for t in tensors]
    ours = [t.detach().to(device).requires_grad_(t.requires_grad) for t in cpu]
    expected, actual = fn(*cpu), fn(*ours)
    torch.testing.assert_close(actual.cpu(), expected, atol=atol, rtol=rtol)
    grad = torch.randn_like(expected)
    expected.backward(grad)
    actual.backward(grad.to(device))
    for mine, reference in zip(ours, cpu, strict=True):
        torch.testing.assert_close(mine.grad.cpu(), reference.grad, atol=atol * 10, rtol=rtol * 10)


CASES = {
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b), (2, 3, 9, 10), (4, 3, 3, 3), 4),
    "strided_dilated": (
        lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, dilation=2),
        (2, 3, 9, 10),
        (4, 3, 3, 3),
        4,
    ),
    "same": (lambda x, w, b: F.conv2d(x, w, b, padding="same"), (2, 3, 9, 10), (4, 3, 2, 3), 4),
    "groups": (
        lambda x, w, b: F.conv2d(x, w, b, groups=3, padding=(1, 0)),
        (2, 6, 7, 8),
        (6, 2, 3, 2),
        6,
    ),
    "depthwise": (
        lambda x, w, b: F.conv2d(x, w, b, groups=6, padding=1, stride=(2, 1)),
        (2, 6, 7, 8),
        (12, 1, 3, 3),
        12,
    ),
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, padding=2, stride=3), (3, 4, 20), (5, 4, 4), 5),
    "conv3d": (lambda x, w, b: F.conv3d(x, w, b, padding=1), (2, 2, 5, 6, 4), (3, 2, 3, 3, 2), 3),
    "transposed": (
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
        (2, 4, 5, 6),
        (4, 3, 3, 3),
        3,
    ),
    "transposed_groups_dilated": (
        lambda x, w, b: F.conv_transpose2d(
            x, w, b, stride=(1, 2), padding=(2, 1), dilation=2, groups=2
        ),
        (2, 4, 5, 6),
        (4, 3, 3, 3),
        6,
    ),
    "transposed1d": (
        lambda x, w, b: F.conv_transpose1d(x, w, b, stride=3),
        (2, 4, 7),
        (4, 2, 5),
        2,
    ),
    "transposed3d": (
        lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2, padding=1),
        (1, 2, 3, 4, 3),
        (2, 3, 2, 3, 3),
        3,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_geometries_match_cpu(device, name):
    fn, x, w, b = CASES[name]
    torch.manual_seed(0)
    compare(device, fn, torch.randn(x), torch.randn(w), torch.randn(b))


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.bfloat16])
def test_dtypes(device, dtype):
    torch.manual_seed(0)
    x, w, b = torch.randn(2, 3, 9, 10), torch.randn(4, 3, 3, 3), torch.randn(4)
    expected = F.conv2d(x.double(), w.double(), b.double(), padding=1)
    actual = F.conv2d(*(t.to(dtype).to(device) for t in (x, w, b)), padding=1).cpu()
    # Accumulated in float32 (float64) and rounded once: within one rounding of the exact sum.
    tolerance = {torch.float64: 1e-12, torch.float16: 1e-3, torch.bfloat16: 8e-3}[dtype]
    torch.testing.assert_close(actual.double(), expected, rtol=tolerance, atol=tolerance * 10)


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("stride", [1, 2])
def test_pointwise(device, channels_last, stride):
    """1x1 kernels, the bottlenecks of residual networks: at stride 1 the image is its own
    block matrix (the GEMM library's route reads it in place), at stride 2 it is not."""
    torch.manual_seed(0)
    x, w, b = torch.randn(3, 6, 7, 8), torch.randn(5, 6, 1, 1), torch.randn(5)
    if channels_last:
        x, w = (t.to(memory_format=torch.channels_last) for t in (x, w))
    compare(device, lambda x, w, b: F.conv2d(x, w, b, stride=stride), x, w, b)


@pytest.mark.parametrize("channels_last", [False, True])
def test_pointwise_transposed_with_bias(device, channels_last):
    """A 1x1 transposed convolution with a bias: the GEMM library's route writes the image in
    place after the bias, which the product adds to (one rounding)."""
    torch.manual_seed(0)
    x, w, b = torch.randn(3, 6, 7, 8), torch.randn(6, 5, 1, 1), torch.randn(5)
    if channels_last:
        x, w = (t.to(memory_format=torch.channels_last) for t in (x, w))
    compare(device, lambda x, w, b: F.conv_transpose2d(x, w, b), x, w, b)
    compare(
        device,
        lambda x, w, b: F.conv_transpose2d(x, w, b),
        x,
        w,
        b,
        dtype=torch.bfloat16,
        atol=2e-2,
        rtol=2e-2,
    )


def test_channels_last_in_gives_channels_last_out(device):
    torch.manual_seed(0)
    x = torch.randn(2, 8, 11, 12).to(memory_format=torch.channels_last)
    w = torch.randn(5, 8, 3, 3)
    out = F.conv2d(x.to(device), w.to(device), padding=1)
    assert out.is_contiguous(memory_format=torch.channels_last)
    compare(device, lambda x, w: F.conv2d(x, w, padding=1), x, w)


def test_non_flat_inputs_are_copied(device):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 10, 20)[:, :, :, ::2]
    w = torch.randn(4, 6, 3, 3)[:, ::2].transpose(2, 3)
    compare(device, lambda x, w: F.conv2d(x, w), x, w)


def test_long_summed_dimension_splits(device):
    # Input channels x taps (300 x 9) and batch x positions (4 x 400) both pass the 2,048
    # summed elements one group walks: partial sums, added afterwards.
    torch.manual_seed(0)
    compare(
        device,
        lambda x, w, b: F.conv2d(x, w, b, padding=1),
        torch.randn(4, 300, 20, 20),
        torch.randn(70, 300, 3, 3),
        torch.randn(70),
        atol=1e-3,
        rtol=1e-3,
    )


@pytest.mark.parametrize("rows", [1, 4, 5])
def test_direct_and_tiled_products(device, rows):
    """Products of at most four rows per group run one invocation per output, more run
    tiles: both sides of the boundary, in every pass (forward, input and weight gradient)."""
    torch.manual_seed(0)
    compare(
        device,
        lambda x, w, b: F.conv2d(x, w, b, padding=1, stride=(2, 1), groups=3),
        torch.randn(2, 3 * rows, 9, 8),
        torch.randn(3 * rows, rows, 3, 3),
        torch.randn(3 * rows),
    )


def test_depthwise_runs_with_a_tail(device):
    # 1,040 depthwise groups x 127 x 131 positions: runs of eight outputs per work item, the
    # last of each group five, in the forward and input-gradient products (four taps, the
    # last one, in the weight gradient's).
    torch.manual_seed(0)
    compare(
        device,
        lambda x, w: F.conv2d(x, w, padding=1, groups=1040),
        torch.randn(1, 1040, 127, 131),
        torch.randn(1040, 1, 3, 3),
        atol=1e-3,
        rtol=1e-3,
    )


@pytest.mark.large
def test_more_workgroups_than_one_grid_row(device):
    # 1,040 depthwise groups x 2 x 127 x 131 positions: 1,040 x 4,160 work items of eight
    # outputs (the last of each group two), 67,600 workgroups of 64 invocations (past 65,535)
    # in the forward and input-gradient products.
    torch.manual_seed(0)
    compare(
        device,
        lambda x, w: F.conv2d(x, w, padding=1, groups=1040),
        torch.randn(2, 1040, 127, 131),
        torch.randn(1040, 1, 3, 3),
        atol=1e-3,
        rtol=1e-3,
    )


@pytest.mark.large
def test_many_positions_and_groups(device):
    # 8 x 96 x 96 = 73,728 output positions (past 65,535) and 96 depthwise groups.
    torch.manual_seed(0)
    compare(
        device,
        lambda x, w: F.conv2d(x, w, padding=1, groups=96),
        torch.randn(8, 96, 96, 96),
        torch.randn(96, 1, 3, 3),
        atol=1e-3,
        rtol=1e-3,
    )


@pytest.mark.parametrize("channels_last", [False, True])
def test_batches_past_one_part_of_columns(device, channels_last):
    """A batch whose unfolded blocks exceed one part of the GEMM library's route on devices
    that have one (64 MiB of columns: 16 images of 64 x 64 positions by 32 channels x 9 taps
    in float32 make 72 MiB), in both memory formats: weight gradients summed over parts."""
    x, w, b = torch.randn(16, 32, 64, 64), torch.randn(16, 32, 3, 3), torch.randn(16)
    if channels_last:
        x, w = (t.to(memory_format=torch.channels_last) for t in (x, w))
    compare(device, lambda x, w, b: F.conv2d(x, w, b, padding=1), x, w, b, atol=1e-3, rtol=1e-3)


FOURS = {
    "3x3": (lambda x, w, b: F.conv2d(x, w, b, padding=1), (3, 4, 8, 6), (8, 4, 3, 3)),
    "strided": (
        lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1),
        (2, 8, 16, 8),
        (4, 8, 3, 3),
    ),
    "dilated": (
        lambda x, w, b: F.conv2d(x, w, b, padding=2, dilation=2),
        (2, 4, 4, 9),
        (4, 4, 3, 5),
    ),
    "1x1": (lambda x, w, b: F.conv2d(x, w, b), (2, 8, 4, 5), (12, 8, 1, 1)),
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, padding=1), (2, 4, 12), (8, 4, 4)),
    "conv3d": (lambda x, w, b: F.conv3d(x, w, b, padding=1), (2, 4, 2, 4, 3), (4, 4, 3, 3, 3)),
    "transposed": (
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
        (2, 8, 4, 4),
        (8, 4, 3, 3),
    ),
}


@pytest.mark.parametrize("name", FOURS)
def test_sizes_in_fours(device, name):
    """Channels, taps x channels and positions all multiples of four: the software device
    unfolds the image into columns and multiplies them by its GEMM's lanes product (a float32
    one, its inner sizes and strides multiples of four), in every product: output, input and
    weight gradients."""
    torch.manual_seed(0)
    fn, x_shape, w_shape = FOURS[name]
    channels = w_shape[1] if name == "transposed" else w_shape[0]
    x, w, b = torch.randn(x_shape), torch.randn(w_shape), torch.randn(channels)
    compare(device, fn, x, w, b, atol=1e-4, rtol=1e-4)


def test_double_backward(device):
    torch.manual_seed(0)
    x0, w0 = (
        torch.randn(2, 3, 6, 7, dtype=torch.float64),
        torch.randn(4, 3, 3, 3, dtype=torch.float64),
    )
    results = []
    for where in ["cpu", device]:
        x = x0.detach().to(where).requires_grad_()
        w = w0.detach().to(where).requires_grad_()
        y = F.conv2d(x, w, stride=2, padding=1)
        (gx,) = torch.autograd.grad(y.square().sum(), x, create_graph=True)
        gx.sum().backward()
        results.append([t.detach().cpu() for t in (gx, x.grad, w.grad)])
    for mine, reference in zip(results[1], results[0], strict=True):
        torch.testing.assert_close(mine, reference)


def test_empty_batch_and_errors(device):
    x = torch.randn(0, 3, 5, 5, device=device)
    assert F.conv2d(x, torch.randn(4, 3, 3, 3, device=device)).shape == (0, 4, 3, 3)
    with pytest.raises(RuntimeError, match="expected input"):
        F.conv2d(torch.randn(1, 2, 5, 5, device=device), torch.randn(4, 3, 3, 3, device=device))
    with pytest.raises(RuntimeError, match="should be the same"):
        F.conv2d(
            torch.randn(1, 3, 5, 5, device=device), torch.randn(4, 3, 3, 3, device=device).double()
        )
    with pytest.raises(NotImplementedError, match="Long"):
        F.conv2d(
            torch.ones(1, 3, 5, 5, device=device, dtype=torch.long),
            torch.ones(4, 3, 3, 3, device=device, dtype=torch.long),
        )


def test_conv_net_trains_like_cpu(device):
    def train(where):
        torch.manual_seed(0)
        model = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=2),
            torch.nn.ReLU(),
            torch.nn.ConvTranspose2d(8, 4, 2, stride=2),
            torch.nn.Flatten(),
            torch.nn.Linear(4 * 8 * 8, 10),
        ).to(where)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        x = torch.randn(16, 3, 8, 8).to(where)
        labels = torch.randint(0, 10, (16,)).to(where)
        losses = []
        for _ in range(10):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses, [p.detach().cpu() for p in model.parameters()]

    ours, our_params = train(device)
    theirs, their_params = train("cpu")
    assert ours == pytest.approx(theirs, rel=1e-4, abs=1e-5)
    for mine, reference in zip(our_params, their_params, strict=True):
        torch.testing.assert_close(mine, reference, rtol=1e-3, atol=1e-4)
