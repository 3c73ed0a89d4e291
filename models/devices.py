"""Which CUDA devices torch sees: the one check behind every question about a GPU (the config's
``device: cuda``, a BiLSTM asked to train on one, the checklist's hardware line)."""

from __future__ import annotations


def cuda_devices() -> list[str]:
    """Names of the CUDA devices torch sees: empty without one, or without torch installed."""
    try:
        import torch  # torch is imported only by what may use a GPU (a CRF run never does)
    except ImportError:
        return []
    if not torch.cuda.is_available():
        return []
    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
