"""Randomized leaky ReLU (`F.rrelu`, `nn.RReLU`) composed from mojo's kernels above autograd
(AutogradPrivateUse1), as the CPU computes it: in training, each element at or below zero is
scaled by a slope drawn uniformly from `[lower, upper]` with mojo's generator (the slopes are
written to `noise`, ones elsewhere, and the gradient is `noise` times the output's); in
evaluation, a leaky ReLU with the mean slope `(lower + upper) / 2`.
"""

import torch


def _slopes(self, noise, lower, upper, generator):
    drawn = torch.empty_like(self).uniform_(float(lower), float(upper), generator=generator)
    with torch.no_grad():
        noise.copy_(torch.where(self <= 0, drawn, 1))
    return noise


def rrelu_with_noise(self, noise, lower=0.125, upper=1.0 / 3.0, training=False, generator=None):
    if not training:
        return torch.nn.functional.leaky_relu(self, (float(lower) + float(upper)) / 2)
    return self * _slopes(self, noise, lower, upper, generator)


def rrelu_with_noise_(self, noise, lower=0.125, upper=1.0 / 3.0, training=False, generator=None):
    if not training:
        return torch.nn.functional.leaky_relu_(self, (float(lower) + float(upper)) / 2)
    return self.mul_(_slopes(self, noise, lower, upper, generator))


KERNELS = {"rrelu_with_noise": rrelu_with_noise, "rrelu_with_noise_": rrelu_with_noise_}
