"""Which CUDA devices torch sees: the one check behind every question about a GPU (the config's
``device: cuda``, a BiLSTM asked to train on one, the checklist's hardware line)."""

from __future__ import annotations

import sys
from pathlib import Path


def driver_present(dev: Path = Path("/dev")) -> bool:
    """Whether a GPU driver can be reached: on Linux through its device files, NVIDIA's
    (``nvidiactl``, ``nvidia0``, ...), ROCm's ``kfd`` (which ``torch.cuda`` also serves) or
    WSL's ``dxg``; elsewhere assumed, so that torch answers.

    Parameters
    ----------
    dev : pathlib.Path, default Path('/dev')
        Where the device files are.

    Returns
    -------
    bool
    """
    if sys.platform != "linux":
        return True
    return any(dev.glob("nvidia*")) or (dev / "kfd").exists() or (dev / "dxg").exists()


def cuda_devices() -> list[str]:
    """Names of the CUDA devices torch sees: empty without one, or without torch installed.

    Without a driver's device files torch can see no device, and the answer comes without
    importing it (1 s of every checklist job on a machine without a GPU).

    Returns
    -------
    list of str
        The devices' names.
    """
    if not driver_present():
        return []
    try:
        import torch  # torch is imported only by what may use a GPU (a CRF run never does)
    except ImportError:
        return []
    if not torch.cuda.is_available():
        return []
    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
