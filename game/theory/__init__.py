"""The theory the referee checks games against: certificates, losses, regret,
the proofs' claims, the safe reading of input files (regular files only, sizes
checked before reading, finite numbers), and the subpackages ``bounds``, ``concepts`` and
``littlestone`` (whose Littlestone dimension engine, shared with the concept
classes, is the private module ``_ldim_engine``). Pure: it imports nothing from
outside itself but :mod:`game.errors`.
"""

from game.theory._certificate_kinds import (
    CERTIFICATE_KINDS,
    certificate_class,
    certificate_from_dict,
    referee_copy,
    register_certificate,
)
from game.theory._certificates import (
    Certificate,
    ExpertCertificate,
    HalfspaceCertificate,
    first_disagreement,
    frozen_copy,
    is_immutable,
)
from game.theory._compiled import compiled, compiled_enabled, jit
from game.theory._files import (
    MAX_CSV_BYTES,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    MAX_TEXT_BYTES,
    input_lines,
    nesting_depth,
    os_problem,
    read_array_file,
    read_input,
    refusal,
)
from game.theory._losses import (
    LOSSES,
    absolute,
    get_loss,
    predicted_label,
    squared,
    zero_one,
)
from game.theory._numerics import (
    row_norms,
    scores,
    squared_ratio,
    unit_vector,
    vector_norm,
)
from game.theory._proofs import (
    ProofClaims,
    block_novikoff_claims,
    margin_perceptron_claims,
)
from game.theory._regret import (
    ExpertRecord,
    best_expert,
    best_expert_losses,
    expert_losses,
    perfect_experts,
    regret,
)

__all__ = [
    "CERTIFICATE_KINDS",
    "LOSSES",
    "MAX_CSV_BYTES",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_TEXT_BYTES",
    "Certificate",
    "ExpertCertificate",
    "ExpertRecord",
    "HalfspaceCertificate",
    "ProofClaims",
    "absolute",
    "best_expert",
    "best_expert_losses",
    "block_novikoff_claims",
    "certificate_class",
    "certificate_from_dict",
    "compiled",
    "compiled_enabled",
    "expert_losses",
    "first_disagreement",
    "frozen_copy",
    "get_loss",
    "input_lines",
    "is_immutable",
    "jit",
    "margin_perceptron_claims",
    "nesting_depth",
    "os_problem",
    "perfect_experts",
    "predicted_label",
    "read_array_file",
    "read_input",
    "referee_copy",
    "refusal",
    "register_certificate",
    "regret",
    "row_norms",
    "scores",
    "squared",
    "squared_ratio",
    "unit_vector",
    "vector_norm",
    "zero_one",
]
