#!/usr/bin/env python3
"""The PyTorch peer with maou HEAD's token backbones: `--preset mlp-mixer` and `--preset vit` next to torch_peer's
`lite` and `resnet`. The data, loss, loop and JSON are torch_peer's (imported, not copied); only the networks are
added, with maou's layer shapes (src/maou/domain/model/mlp_mixer.py, vision_transformer.py at b40d091) and the
Stage 3 heads, so the parameter counts equal maou's: mlp-mixer 9,171,273, vit 19,766,713 (docs/backbones.md).

    python3 scripts/peer/torch_backbones_peer.py --peer-dir ../shared/peer --preset vit --batch-size 256 --threads 2
    python3 scripts/peer/torch_backbones_peer.py --peer-dir ../shared/peer --preset mlp-mixer --count-only
"""
import json
import os
import sys

PEER_DIR_FLAG = "--peer-dir"


def _peer_dir():
    if PEER_DIR_FLAG in sys.argv:
        i = sys.argv.index(PEER_DIR_FLAG)
        path = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        return path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "peer")


sys.path.insert(0, os.path.abspath(_peer_dir()))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torch_peer  # noqa: E402

TOKENS = 81
STEM = 64  # board embedding 32 + hand projection 32 per square


class TokenStem(nn.Module):
    """maou's stem for the token backbones: Embedding(256, 32) per square; Linear(14, 32) of the hands on token 0 only."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(256, 32)
        self.hand = nn.Linear(14, 32)

    def forward(self, board, hand):
        b = self.embed(board.long()).reshape(board.shape[0], TOKENS, 32)
        h = torch.zeros(board.shape[0], TOKENS, 32, dtype=b.dtype, device=b.device)
        h[:, 0] = self.hand(hand.float())
        return torch.cat([b, h], 2)


class Mlp(nn.Module):
    def __init__(self, dim, hidden, dropout):
        super().__init__()
        self.fc1, self.fc2, self.drop = nn.Linear(dim, hidden), nn.Linear(hidden, dim), nn.Dropout(dropout)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(F.gelu(self.fc1(x)))))


class MixerBlock(nn.Module):
    def __init__(self, dim, tokens, token_hidden, channel_hidden, dropout):
        super().__init__()
        self.norm1, self.token = nn.LayerNorm(dim), Mlp(tokens, token_hidden, dropout)
        self.norm2, self.channel = nn.LayerNorm(dim), Mlp(dim, channel_hidden, dropout)

    def forward(self, x):
        x = x + self.token(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel(self.norm2(x))


class Mixer(nn.Module):
    """ShogiMLPMixer's defaults: LayerNorm(64) → Linear(64, 256), 16 blocks (tokens 81→128→81, channels 256→1024→256)."""

    def __init__(self, dim=256, depth=16, token_hidden=128, channel_hidden=1024, dropout=0.15):
        super().__init__()
        self.stem, self.norm_in, self.proj = TokenStem(), nn.LayerNorm(STEM), nn.Linear(STEM, dim)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.Sequential(*[MixerBlock(dim, TOKENS, token_hidden, channel_hidden, dropout) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.policy, self.value = nn.Linear(dim, torch_peer.LABELS), nn.Linear(dim, 1)

    def forward(self, board, hand):
        x = self.blocks(self.drop(self.proj(self.norm_in(self.stem(board, hand)))))
        x = self.drop(self.norm(x)).mean(1)
        return self.policy(x), self.value(x)


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        # maou calls scaled_dot_product_attention, with no attention dropout
        y = F.scaled_dot_product_attention(q, k, v)
        return self.proj(y.transpose(1, 2).reshape(b, n, d))


class EncoderBlock(nn.Module):
    def __init__(self, dim, heads, mlp_ratio, dropout):
        super().__init__()
        self.norm1, self.attn, self.drop = nn.LayerNorm(dim), Attention(dim, heads), nn.Dropout(dropout)
        self.norm2, self.mlp = nn.LayerNorm(dim), Mlp(dim, int(dim * mlp_ratio), dropout)

    def forward(self, x):
        x = x + self.drop(self.attn(self.norm1(x)))
        return x + self.mlp(self.norm2(x))


class Vit(nn.Module):
    """VisionTransformer's defaults: Linear(64, D) + learned positions [81, D], 6 pre-norm blocks, 8 heads, MLP 4·D."""

    def __init__(self, dim=512, layers=6, heads=8, mlp_ratio=4.0, dropout=0.1):
        super().__init__()
        self.stem, self.embed = TokenStem(), nn.Linear(STEM, dim)
        self.pos = nn.Parameter(torch.randn(1, TOKENS, dim) * 0.02)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.Sequential(*[EncoderBlock(dim, heads, mlp_ratio, dropout) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)
        self.policy, self.value = nn.Linear(dim, torch_peer.LABELS), nn.Linear(dim, 1)

    def forward(self, board, hand):
        x = self.blocks(self.drop(self.embed(self.stem(board, hand)) + self.pos))
        x = self.norm(x).mean(1)
        return self.policy(x), self.value(x)


TOKEN_BACKBONES = {"mlp-mixer": Mixer, "vit": Vit}
# maou's Stage 3 counts (docs/backbones.md), checked by --count-only
MAOU_PARAMETERS = {"resnet": 17_012_665, "mlp-mixer": 9_171_273, "vit": 19_766_713}
_conv_network = torch_peer.Network


def network(preset):
    return TOKEN_BACKBONES[preset]() if preset in TOKEN_BACKBONES else _conv_network(preset)


def main():
    if "--count-only" in sys.argv:
        counts = {}
        for preset in MAOU_PARAMETERS:
            counts[preset] = sum(p.numel() for p in network(preset).parameters())
        print(json.dumps({"parameters": counts, "maou": MAOU_PARAMETERS, "equal": counts == MAOU_PARAMETERS}))
        return
    # torch_peer's main builds `Network(preset)` and offers `sorted(PRESETS)`: both learn the token backbones here.
    torch_peer.PRESETS = {**torch_peer.PRESETS, **{k: {} for k in TOKEN_BACKBONES}}
    torch_peer.Network = network
    torch_peer.main()


if __name__ == "__main__":
    main()
