"""``tiledb.Config`` and ``tiledb.Ctx`` as TileDB-Py code passes them: the
parameters are kept; those the library has a use for become its options
(``vfs.s3.*``, ``vfs.gcs.*``, ``vfs.azure.*`` the object store's keys,
``sm.encryption_key`` the key of an encrypted array). Others are accepted
and have no effect."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

__all__ = ["Config", "Ctx", "default_ctx", "store_options", "key_of"]

# TileDB's parameter -> the object_store crate's key (as the native API's
# `config=` takes them).
_STORE_KEYS = {
    "vfs.s3.region": "aws_region",
    "vfs.s3.aws_access_key_id": "aws_access_key_id",
    "vfs.s3.aws_secret_access_key": "aws_secret_access_key",
    "vfs.s3.aws_session_token": "aws_session_token",
    "vfs.s3.endpoint_override": "aws_endpoint",
    "vfs.s3.use_virtual_addressing": "aws_virtual_hosted_style_request",
    "vfs.s3.requester_pays": "aws_request_payer",
    "vfs.s3.no_sign_request": "aws_skip_signature",
    "vfs.gcs.service_account_key": "google_service_account_key",
    "vfs.gcs.workload_identity_configuration": "google_application_credentials",
    "vfs.azure.storage_account_name": "azure_storage_account_name",
    "vfs.azure.storage_account_key": "azure_storage_account_key",
    "vfs.azure.storage_sas_token": "azure_storage_sas_key",
    "vfs.azure.blob_endpoint": "azure_endpoint",
}


class Config:
    """TileDB parameters (a mapping of strings), as ``tiledb.Config``."""

    def __init__(self, params: Optional[Mapping[str, Any]] = None, path: Optional[str] = None):
        self._params: Dict[str, str] = {}
        if path is not None:
            with open(path) as f:  # noqa: PTH123 (TileDB's "key value" lines)
                for line in f:
                    parts = line.split(None, 1)
                    if len(parts) == 2 and not parts[0].startswith("#"):
                        self._params[parts[0]] = parts[1].strip()
        for k, v in (params or {}).items():
            self[k] = v

    def __setitem__(self, key: str, value: Any) -> None:
        self._params[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)

    def __getitem__(self, key: str) -> str:
        return self._params[key]

    def __delitem__(self, key: str) -> None:
        del self._params[key]

    def __contains__(self, key: object) -> bool:
        return key in self._params

    def __iter__(self) -> Iterator[str]:
        return iter(self._params)

    def __len__(self) -> int:
        return len(self._params)

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default``."""
        return self._params.get(key, default)

    def items(self, prefix: str = "") -> List[Tuple[str, str]]:
        """The parameters starting with ``prefix``."""
        return [(k, v) for k, v in self._params.items() if k.startswith(prefix)]

    def keys(self, prefix: str = "") -> List[str]:
        """The parameter names starting with ``prefix``."""
        return [k for k, _ in self.items(prefix)]

    def values(self, prefix: str = "") -> List[str]:
        """The values of the parameters starting with ``prefix``."""
        return [v for _, v in self.items(prefix)]

    def update(self, other: Mapping[str, Any]) -> None:
        """Sets every parameter of ``other``."""
        for k, v in other.items():
            self[k] = v

    def dict(self, prefix: str = "") -> Dict[str, str]:
        """The parameters as a dict."""
        return dict(self.items(prefix))

    def __repr__(self) -> str:
        return f"Config({self._params!r})"


class Ctx:
    """A context: holds a :class:`Config`, as ``tiledb.Ctx``."""

    def __init__(self, config: Any = None):
        self._config = config if isinstance(config, Config) else Config(config)

    def config(self) -> Config:
        """The context's parameters."""
        return self._config

    def __repr__(self) -> str:
        return f"Ctx({self._config!r})"


_DEFAULT: Optional[Ctx] = None


def default_ctx(config: Any = None) -> Ctx:
    """The default context (made with ``config`` the first time)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Ctx(config)
    return _DEFAULT


def _config_of(ctx: Any, config: Any = None) -> Config:
    cfg = Config()
    if isinstance(ctx, Ctx):
        cfg.update(ctx.config().dict())
    if config is not None:
        cfg.update(config.dict() if isinstance(config, Config) else dict(config))
    return cfg


def store_options(ctx: Any = None, config: Any = None) -> Dict[str, str]:
    """The object store's options for the parameters of ``ctx`` and
    ``config``: the ``vfs.*`` keys the library knows, mapped; an endpoint
    without a scheme gets ``vfs.s3.scheme``'s, and ``http`` allows plain
    HTTP."""
    cfg = _config_of(ctx, config)
    out = {_STORE_KEYS[k]: v for k, v in cfg.items() if k in _STORE_KEYS and v != ""}
    scheme = cfg.get("vfs.s3.scheme", "https")
    endpoint = out.get("aws_endpoint")
    if endpoint is not None and "://" not in endpoint:
        out["aws_endpoint"] = f"{scheme}://{endpoint}"
    if scheme == "http" or out.get("aws_endpoint", "").startswith("http://"):
        out["aws_allow_http"] = "true"
    if cfg.get("vfs.s3.verify_ssl") == "false":
        out["allow_invalid_certificates"] = "true"
    return out


def key_of(key: Any, ctx: Any = None, config: Any = None) -> Any:
    """The encryption key: ``key`` if given, else the context's
    ``sm.encryption_key`` (when ``sm.encryption_type`` is AES_256_GCM)."""
    if key is not None:
        return key
    cfg = _config_of(ctx, config)
    k = cfg.get("sm.encryption_key")
    if k and cfg.get("sm.encryption_type", "AES_256_GCM") == "AES_256_GCM":
        return k
    return None
